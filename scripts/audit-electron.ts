/**
 * `npm run audit:electron`: audits the desktop shell (electron/) with @doyensec/electronegativity
 * and exits non-zero on any finding above informational, or if anything could not be audited.
 *
 * What electronegativity actually reads, and how this script makes sure it reads all of it:
 * - It parses .js/.jsx/.ts/.tsx/.html and package.json, and silently skips everything else
 *   (.cts/.cjs included, so the preload would go unaudited) and every file it fails to parse.
 *   So the shell is staged in a temporary folder twice: the TypeScript sources (preload.cts
 *   staged as preload.ts), and the same files transpiled to JavaScript (what Electron runs),
 *   all as .ts/.js; and any parse error fails the audit.
 * - Its checks recognise code by shape: `new BrowserWindow({...})`, `.on('will-navigate')`,
 *   `setWindowOpenHandler(`, `setPermissionRequestHandler(`. If a refactor moved these out of
 *   sight the checks would pass vacuously, so the script insists they are in what it audits.
 * - The UI's Content-Security-Policy is a response header set by the server
 *   (server/ui/static.ts), which a source scanner cannot see. The exact policy is staged as a
 *   <meta> tag so electronegativity's CSP evaluator grades the real policy instead of reporting
 *   "no CSP".
 * - AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK is left out: it downloads Electron's release list from
 *   GitHub on every run (no network here; its result changes daily), and for an Electron in
 *   devDependencies, as ours is, it reports at informational level only.
 * - Before auditing, a deliberately insecure sample is audited, to prove the tool really reports
 *   here (a broken install would otherwise look like a clean audit).
 *
 * Reviewed findings. Some checks ask for a person's review whenever a feature is used at all
 * (any preload; any shell.openExternal of a non-constant). Each such use is marked in the code
 * with `// eng-disable <CHECK_ID>` and a comment saying why, which electronegativity honours; a
 * marker is accepted only for a check listed in REVIEWED_MARKERS below, so a new one needs a
 * change here too. The CSP evaluator's findings are accepted only if each one is listed in
 * REVIEWED_CSP; any other (say, 'unsafe-inline' added to the policy) fails the audit.
 */
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { UI_CONTENT_SECURITY_POLICY } from '../server/ui/static.js';
import { repoRoot, section } from './support/repo.js';

/** Checks that may be silenced by an eng-disable marker in electron/, and why that is fine. */
const REVIEWED_MARKERS: Record<string, string> = {
  PRELOAD_JS_CHECK: 'the one preload (preload.cts) exposes three named functions via contextBridge, each one IPC call validated in ipc.ts',
  OPEN_EXTERNAL_JS_CHECK: 'the one call (navigation.ts, openInSystemBrowser) passes only http(s) URLs without credentials',
};

/** CSP evaluator findings on the server's UI policy that were reviewed, by directive and value. */
const REVIEWED_CSP: { directive: string; value: string; why: string }[] = [
  {
    directive: 'script-src',
    value: "'self'",
    why:
      "the evaluator's caveat is JSONP, AngularJS or user uploads on the same origin. There is no JSONP and no " +
      'AngularJS; downloaded media are accepted only as image, video, audio or PDF and the CDN serves them with that ' +
      'type and nosniff, so they cannot run as script; the API answers JSON, XML or NDJSON, which does not parse as ' +
      'script. A hand-edited data file could record another media type, but whoever can edit it (or use the ' +
      'loopback-only control API) already controls the emulator',
  },
];

interface Level {
  value: number;
  name: string;
}
interface Issue {
  id: string;
  file: string;
  location: { line: number; column: number };
  description: string;
  severity: Level;
  confidence: Level;
  manualReview: boolean;
  sample?: string;
}
interface RunResult {
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: Issue[];
}
type Run = (options: Record<string, unknown>, forCli: boolean) => Promise<RunResult>;
interface CspEvaluatorModule {
  CspParser: new (policy: string) => { csp: unknown };
  CspEvaluator: new (
    csp: unknown,
    version: unknown,
  ) => { evaluate(): { severity: number; directive: string; value?: string; description: string }[] };
  Version: { CSP3: unknown };
  severities: Record<string, number>;
}

const require = createRequire(import.meta.url);
const electronegativity = require('@doyensec/electronegativity') as Run;
// The evaluator electronegativity itself uses, resolved from it.
const cspEvaluator = createRequire(require.resolve('@doyensec/electronegativity'))('@doyensec/csp-evaluator') as CspEvaluatorModule;
const electronVersion = (require('electron/package.json') as { version: string }).version;

const SHELL_DIR = join(repoRoot, 'electron');
const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];
/** Shapes the checks key on (see above), each with what it proves is audited. */
const MUST_SEE: [RegExp, string][] = [
  [/new BrowserWindow\(\{/, 'window options (sandbox, contextIsolation, nodeIntegration, preload)'],
  [/\.on\('will-navigate'/, 'navigation limits'],
  [/\.setWindowOpenHandler\(/, 'new-window limits'],
  [/\.setPermissionRequestHandler\(/, 'permission handler'],
];

async function audit(input: string): Promise<RunResult> {
  // It prints a line when it cannot fetch fresh translations (it tries, with a 1 s timeout): quieten it.
  const log = console.log;
  console.log = () => undefined;
  try {
    return await electronegativity(
      {
        input,
        customScan: [],
        excludeFromScan: EXCLUDED_CHECKS.map((check) => check.toLowerCase()),
        isRelative: true,
        isVerbose: true,
        electronVersionOverride: electronVersion,
        parserPlugins: [],
      },
      false,
    );
  } finally {
    console.log = log;
  }
}

/** Stages the shell as electronegativity can read it; returns the staged files by path. */
async function stage(dir: string): Promise<Map<string, string>> {
  const staged = new Map<string, string>();
  const sources = (await readdir(SHELL_DIR)).filter((name) => /\.c?ts$/.test(name) && !name.endsWith('.d.ts'));
  if (sources.length === 0) throw new Error(`no sources in ${SHELL_DIR}`);
  for (const name of sources) {
    const text = await readFile(join(SHELL_DIR, name), 'utf8');
    const commonjs = name.endsWith('.cts');
    // The same emit as tsc's (isolatedModules is on), without waiting for a typecheck.
    const js = ts.transpileModule(text, {
      fileName: name,
      compilerOptions: { target: ts.ScriptTarget.ES2023, module: commonjs ? ts.ModuleKind.CommonJS : ts.ModuleKind.ES2022 },
    }).outputText;
    const stem = name.replace(/\.c?ts$/, '');
    staged.set(`source/${stem}.ts`, text);
    staged.set(`compiled/${stem}.js`, js);
  }
  staged.set('package.json', await readFile(join(repoRoot, 'package.json'), 'utf8'));
  staged.set(
    'server-csp/ui.html',
    `<!doctype html>\n<!-- The policy server/ui/static.ts sends with every UI response, as a header. -->\n` +
      `<meta http-equiv="Content-Security-Policy" content="${UI_CONTENT_SECURITY_POLICY.replaceAll('"', '&quot;')}">\n`,
  );
  for (const [path, text] of staged) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  return staged;
}

function describe(issue: Issue): string {
  const where = issue.file === 'N/A' ? '(whole app)' : `${issue.file}:${issue.location.line}:${issue.location.column}`;
  const review = issue.manualReview ? ', needs review' : '';
  return `${issue.severity.name} (${issue.confidence.name}${review}) ${issue.id} at ${where}\n    ${issue.description.replace(/\s+/g, ' ').trim()}`;
}

/** For a CSP_GLOBAL_CHECK finding: the evaluator's findings behind it that nobody has reviewed. */
function unreviewedCspFindings(policy: string): string[] {
  const parsed = new cspEvaluator.CspParser(policy);
  const findings = new cspEvaluator.CspEvaluator(parsed.csp, cspEvaluator.Version.CSP3).evaluate();
  // The levels electronegativity turns into a finding (see its CSPGlobalCheck): HIGH, MEDIUM and their "maybe"s.
  const { HIGH, MEDIUM, HIGH_MAYBE, MEDIUM_MAYBE } = cspEvaluator.severities;
  return findings
    .filter((finding) => [HIGH, MEDIUM, HIGH_MAYBE, MEDIUM_MAYBE].includes(finding.severity))
    .filter((finding) => !REVIEWED_CSP.some((r) => r.directive === finding.directive && r.value === (finding.value ?? '')))
    .map((finding) => `${finding.directive} ${finding.value ?? ''}: ${finding.description}`);
}

async function selfTest(dir: string): Promise<void> {
  await mkdir(dir);
  await writeFile(
    join(dir, 'insecure.js'),
    "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });\n",
  );
  const { issues } = await audit(dir);
  const found = issues.filter((issue) => issue.severity.value > 0).map((issue) => issue.id);
  if (!found.includes('CONTEXT_ISOLATION_JS_CHECK') || !found.includes('SANDBOX_JS_CHECK')) {
    throw new Error(
      `electronegativity did not flag a known-insecure window (found: ${found.join(', ') || 'nothing'}): the tool is not working here`,
    );
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  const work = await mkdtemp(join(tmpdir(), 'cms-emulator-audit-'));
  try {
    section('electronegativity: self-test on a known-insecure window');
    await selfTest(join(work, 'self-test'));
    console.log('  flagged as expected');

    const input = join(work, 'shell');
    const staged = await stage(input);
    section(`electronegativity on electron/ (Electron ${electronVersion}): ${staged.size} files`);
    console.log(`  ${[...staged.keys()].join(', ')}`);

    const problems: string[] = [];
    const compiled = [...staged].filter(([path]) => path.startsWith('compiled/')).map(([, text]) => text);
    for (const [shape, what] of MUST_SEE) {
      if (!compiled.some((text) => shape.test(text))) problems.push(`nothing matches ${shape} (${what}): the audit would not see it`);
    }

    const { errors, issues } = await audit(input);
    for (const error of errors) problems.push(`could not parse ${relative(input, error.file)}: ${error.message} (so it was not audited)`);

    const reviewedCsp: Issue[] = [];
    const above: Issue[] = [];
    for (const issue of issues.filter((i) => i.severity.value > 0)) {
      const policy = issue.id === 'CSP_GLOBAL_CHECK' ? issue.sample : undefined;
      if (policy !== undefined && unreviewedCspFindings(policy).length === 0) reviewedCsp.push(issue);
      else above.push(issue);
    }
    const informational = issues.filter((issue) => issue.severity.value === 0);
    section(`findings: ${above.length} above informational, ${informational.length} informational`);
    for (const issue of [...above, ...informational]) console.log(`  ${describe(issue)}`);
    for (const issue of above) {
      const policy = issue.id === 'CSP_GLOBAL_CHECK' ? issue.sample : undefined;
      const detail = policy === undefined ? '' : ` (${unreviewedCspFindings(policy).join('; ')})`;
      problems.push(`${issue.severity.name} ${issue.id} at ${issue.file}:${issue.location.line}${detail}`);
    }

    section('reviewed findings');
    for (const issue of reviewedCsp) {
      console.log(`  ${describe(issue)}`);
      for (const r of REVIEWED_CSP) console.log(`    reviewed: ${r.directive} ${r.value}: ${r.why}`);
    }
    for (const [path, text] of staged) {
      if (!path.startsWith('source/')) continue;
      const lines = text.split('\n');
      lines.forEach((line, index) => {
        const marker = /eng-disable\s+([\w\s,]+)/.exec(line);
        if (!marker) return;
        for (const check of marker[1]!.trim().split(/[\s,]+/)) {
          const why = REVIEWED_MARKERS[check];
          console.log(
            `  ${check} silenced at electron/${path.slice('source/'.length)}:${index + 1}\n    reviewed: ${why ?? 'NOT IN THE REVIEWED LIST'}`,
          );
          if (why === undefined)
            problems.push(`eng-disable ${check} at ${path}:${index + 1} is not in REVIEWED_MARKERS (scripts/audit-electron.ts)`);
        }
      });
    }

    section(problems.length === 0 ? `audit passed (${((Date.now() - started) / 1000).toFixed(1)} s)` : 'audit FAILED');
    for (const problem of problems) console.error(`  ${problem}`);
    return problems.length === 0 ? 0 : 1;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
