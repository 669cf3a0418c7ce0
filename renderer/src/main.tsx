import { render } from 'preact';
import { App } from './App.js';
import { connect } from './state/live.js';
import './styles.css';

connect();
render(<App />, document.getElementById('app')!);
