/**
 * The status page in a real browser: Debian's chromium (tools/browser/setup.sh installs it),
 * driven by playwright-core with no browser download of its own. An Icefront on the demo
 * warehouse, with authentication on, plans a scan through the REST API; an operator's browser
 * loads `/`, finds the catalog and the plan, runs the page's script (the refresh checkbox) under
 * its content-security-policy with no console error and no CSP violation, and the page holds no
 * plan-task string and no bearer token. The screenshot is kept in the test's output folder
 * (`.tap/fixtures/…`, printed as a comment).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startIcefront } from '../../../src/main.js';
import { authConfig, configWith, TOKENS } from '../../helpers/auth-config.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir } from '../../helpers/upstream-stub.js';
import { demoCatalog, DEMO_WAREHOUSE, REPO } from '../../service/planning/helpers.js';

const CHROMIUM = '/usr/bin/chromium';

function browserSkip(): string | false {
  const setup = spawnSync('bash', [path.join(REPO, 'tools/browser/setup.sh')], { encoding: 'utf8' });
  if (setup.status !== 0 || !fs.existsSync(CHROMIUM))
    return `chromium is not installed and tools/browser/setup.sh could not install it (exit ${setup.status}): ${(setup.stderr || setup.stdout).trim().slice(0, 300)}`;
  return false;
}

const skip = browserSkip();

t.test('an operator’s browser shows the catalog and the plan, runs the page under its CSP, and sees no secret', { skip }, async (t) => {
  const { chromium } = await import('playwright-core');
  // an upstream catalog beside the demo one, so the page shows both kinds
  const stub = await startUpstreamStub({ prefix: 'wh', tables: [stubTableFromDir(`${DEMO_WAREHOUSE}/sales/orders/metadata`, ['sales'], 'orders')] });
  const running = await startIcefront(configWith([demoCatalog('demo'), stubCatalogConfig(stub, { name: 'up' })], authConfig(), 1), { port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  t.teardown(async () => {
    await browser.close();
    await running.close();
    await stub.close();
  });
  const loaded = await fetch(`${running.url}/v1/up/namespaces/sales/tables/orders`, { headers: { authorization: `Bearer ${TOKENS.admin}` } });
  t.equal(loaded.status, 200, 'a table loaded through the upstream catalog');

  const planned = await fetch(`${running.url}/v1/demo/namespaces/sales/tables/orders/plan`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKENS.admin}`, 'content-type': 'application/json' },
    body: '{}',
  });
  t.equal(planned.status, 200, 'a plan through the REST API');
  const plan = (await planned.json()) as { 'plan-tasks'?: string[] };
  const taskStrings = plan['plan-tasks'] ?? [];
  t.ok(taskStrings.length > 0, 'handing out plan tasks (batch size 1)');

  const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${TOKENS.ops}` }, viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // recorded from before the page's own code runs (an init script is not subject to the page's CSP);
  // browser code as text: this project compiles without the DOM's types
  await page.addInitScript({
    content: "window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));",
  });

  const response = await page.goto(`${running.url}/`, { waitUntil: 'load' });
  t.equal(response?.status(), 200);
  t.equal(await page.title(), 'Icefront status');
  const catalog = page.locator('#catalog-demo');
  t.equal(await catalog.locator('td.name').textContent(), 'demo', 'the catalog is listed');
  t.match(await catalog.textContent(), /filesystem.*local/s, 'with its type and who plans it');
  t.match(await page.locator('#catalog-up').textContent(), /rest.*auto: the upstream advertises no \/plan endpoint.*answering/s, 'the upstream catalog, why it plans locally, its health');
  const row = page.locator('tr.plan').first();
  t.equal(await row.locator('td.table').textContent(), 'sales.orders', 'the plan is listed with its table');
  t.match(await row.textContent(), /admin/, 'and who asked');
  const cells = await row.locator('td').allTextContents();
  t.match(cells[5], /^\d+ \/ \d+$/, 'files kept / pruned');
  t.equal(Number(cells[5]!.split(' / ')[0]), Number(cells[7]!.split(' ')[0]), 'files kept are the plan’s tasks');

  // the page's script and stylesheet run: allowed by their hashes
  t.equal(await page.evaluate('getComputedStyle(document.body).marginTop'), '24px', 'the stylesheet applies');
  await page.locator('#auto-refresh').check();
  t.equal(await page.evaluate('location.hash'), '#refresh', 'the script runs');
  await page.locator('#auto-refresh').uncheck();

  const shot = path.join(t.testdirName, 'status-page.png');
  fs.mkdirSync(t.testdirName, { recursive: true });
  await page.screenshot({ path: shot, fullPage: true });
  t.ok(fs.statSync(shot).size > 10_000, 'a screenshot was saved');
  t.comment(`status page screenshot: ${shot}`);

  const htmlText = await page.content();
  for (const task of taskStrings) t.notOk(htmlText.includes(task.slice(3, 43)), 'no plan-task string in the page');
  for (const token of Object.values(TOKENS)) t.notOk(htmlText.includes(token), 'no bearer token in the page');
  t.same(await page.evaluate('window.cspViolations'), [], 'no CSP violation');
  t.same(problems, [], 'no console error');
});
