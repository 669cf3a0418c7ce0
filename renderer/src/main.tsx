// The shared stylesheet first: each view's own CSS, imported by the view, comes after it and wins.
import './styles.css';
import { render } from 'preact';
import { App } from './App.js';
import { connect } from './state/live.js';

connect();
render(<App />, document.getElementById('app')!);
