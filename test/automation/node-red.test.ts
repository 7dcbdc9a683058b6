/**
 * Node-RED as the box runs it: the launcher in its own process with our node package, the two
 * ready flows deployed through the admin API, against a real dashboard with the real auth
 * feature. The flows' MQTT inputs are switched off; readings and prices come in through the
 * flows' own "try it" inject nodes (POST /inject/:id with the message, as the editor's button
 * sends it), and the every-minute ticks are pressed the same way instead of waited for.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createApiKey, loginAs, setupAdmin } from '../fixtures/dashboard-auth.js';
import { startDashboardFixture, type DashboardFixture } from '../fixtures/dashboard.js';
import { eventually } from '../fixtures/eventually.js';
import { readyFlow, startNodeRedFixture, type FlowNode, type NodeRedFixture } from '../fixtures/node-red.js';
import { gcodeFile, postJob } from '../dashboard/queue/queue-dashboard.js';
import { launchChromium, openSignedIn } from '../dashboard/web/browser.js';
import { ADMIN, USER_PASSWORD } from '../fixtures/dashboard-auth.js';

let dash: DashboardFixture;
let red: NodeRedFixture;
let adminToken: string;
let printToken: string;
let apiKey: string;
let locationId: number;
const jobIds: Record<'pa' | 'pla' | 'manual', string> = { pa: '', pla: '', manual: '' };

before(async () => {
  dash = await startDashboardFixture({ logLevel: 'warn', config: { rate_limit: { per_minute: 100_000, per_second: 10_000 } } });
  adminToken = await setupAdmin(dash);
  printToken = await loginAs(dash, 'print');
  apiKey = (await createApiKey(dash, 'print', 'node-red')).key;
  red = await startNodeRedFixture(dash.url);

  const location = await dash.request('POST', '/api/inventory/locations', { token: adminToken, body: { name: 'Dry box', humidity_limit_pct: 40 } });
  assert.equal(location.status, 201, location.text);
  locationId = location.json.id;
  for (const material of ['PA6-CF', 'PLA']) {
    const spool = await dash.request('POST', '/api/filaments', { token: adminToken, body: { material, location_id: locationId } });
    assert.equal(spool.status, 201, spool.text);
  }
  const add = async (name: string, material: string, fields: Record<string, unknown> = {}) => {
    const job = await postJob(dash, `${name}.gcode`, gcodeFile([[material, '#000000', 10]]), { name, ...fields }, printToken);
    assert.equal(job.status, 201, job.text);
    return job.json.id as string;
  };
  jobIds.pa = await add('gear-pa', 'PA6-CF');
  jobIds.pla = await add('bracket-pla', 'PLA');
  jobIds.manual = await add('held-by-hand', 'PLA', { held: true });
});

after(async () => {
  await red?.stop();
  await dash?.cleanup();
});

/** HH:MM of the box's clock, `minutes` from now. */
function clock(minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

/**
 * Both ready flows as one deployment, pointed at the test's dashboard and key: the shared config
 * nodes once, the MQTT inputs off, the tabs' settings replaced by `env`.
 */
function bothFlows(env: Record<string, string>): FlowNode[] {
  const byId = new Map<string, FlowNode>();
  for (const node of [...readyFlow('queue-dispatch.json'), ...readyFlow('climate.json')]) byId.set(node.id, structuredClone(node));
  for (const node of byId.values()) {
    if (node.type === 'printyard-config') Object.assign(node, { url: dash.url, credentials: { apiKey } });
    if (node.type === 'mqtt in') node.d = true;
    if (node.type === 'tab') {
      node.env = node.env.map((e: { name: string; value: string; type: string }) => (e.name in env ? { ...e, value: env[e.name] } : e));
    }
  }
  return [...byId.values()];
}

/** Presses an inject node of the deployed flows, with these message properties when given. */
async function inject(id: string, props?: Array<{ p: string; v: string; vt: string }>): Promise<void> {
  const response = await red.admin('POST', `/inject/${id}`, adminToken, props ? { __user_inject_props__: props } : undefined);
  assert.equal(response.status, 200, response.text);
}

async function held(id: string): Promise<boolean> {
  const response = await dash.request('GET', `/api/queue/${id}`, { token: printToken });
  assert.equal(response.status, 200, response.text);
  return response.json.state === 'held';
}

async function pauseReasons(): Promise<string[]> {
  const response = await dash.request('GET', '/api/queue', { token: printToken });
  assert.equal(response.status, 200, response.text);
  return response.json.pause.reasons.map((r: { reason: string }) => r.reason);
}

async function reading(humidity: number): Promise<void> {
  await inject('climate-try', [{ p: 'payload', v: JSON.stringify({ temperature_c: 21.5, humidity_pct: humidity }), vt: 'json' }]);
  await inject('climate-tick');
}

test('the editor signs in dashboard admins only, with their session token', async () => {
  assert.equal((await red.admin('GET', '/flows', '')).status, 401);
  assert.equal((await red.admin('GET', '/flows', 'not-a-token')).status, 401);
  assert.equal((await red.admin('GET', '/flows', printToken)).status, 401);
  assert.equal((await red.admin('GET', '/flows', await loginAs(dash, 'view'))).status, 401);
  assert.equal((await red.admin('GET', '/flows', apiKey)).status, 401, 'a print-role API key is no admin');
  const granted = await red.admin('GET', '/flows', adminToken);
  assert.equal(granted.status, 200, granted.text);
});

test("the settings page links admins to the editor, signed in with their session; the link's address is the setting, else port 1880", async () => {
  const info = async () => (await dash.request('GET', '/api/system/info', { token: printToken })).json.automation.node_red_url;
  assert.equal(await info(), 'http://127.0.0.1:1880', 'no setting: the host the request came to, port 1880');
  const set = await dash.request('PATCH', '/api/settings', { token: adminToken, body: { automation: { node_red_url: `${red.url}/` } } });
  assert.equal(set.status, 200, set.text);
  assert.equal(await info(), red.url);

  const browser = await launchChromium();
  try {
    const viewer = await openSignedIn(browser, dash.url, { username: 'print-user', password: USER_PASSWORD }, '/settings');
    await viewer.page.getByRole('heading', { name: 'System' }).waitFor();
    assert.equal(await viewer.page.locator('.node-red-link').count(), 0, 'no link for a print user (the editor would refuse them)');

    const { page, problems, token } = await openSignedIn(browser, dash.url, ADMIN, '/settings');
    const link = page.getByRole('link', { name: 'Open the automation editor (Node-RED)' });
    assert.equal(await link.getAttribute('href'), `${red.url}/?access_token=${encodeURIComponent(token)}`);
    const [editor] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    // Our palette is only listed to a signed-in admin: the editor took the dashboard session.
    await editor.locator('.red-ui-palette-node[data-palette-type="printyard-queue-action"]').waitFor({ timeout: 30_000 });
    assert.equal(await editor.locator('#node-dialog-login-fields').count(), 0, 'no login form');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('every node of both ready flows is installed: core nodes and ours', async () => {
  const response = await fetch(`${red.url}/nodes`, { headers: { authorization: `Bearer ${adminToken}`, accept: 'application/json' } });
  assert.equal(response.status, 200);
  const sets = (await response.json()) as Array<{ types: string[] }>;
  const installed = new Set<string>(sets.flatMap((set) => set.types));
  for (const ours of ['printyard-config', 'printyard-printer-in', 'printyard-printer-control', 'printyard-queue-in', 'printyard-queue-action']) {
    assert.ok(installed.has(ours), ours);
  }
  assert.ok(installed.has('printyard-climate-out') && installed.has('printyard-notify'));
  for (const name of ['queue-dispatch.json', 'climate.json']) {
    const missing = readyFlow(name).filter((n) => n.type !== 'tab' && !installed.has(n.type));
    assert.deepEqual(missing, [], `${name} uses node types that are not installed`);
  }
});

test('climate: a reading is stored on the location; above the limit it alerts and holds the jobs needing a hygroscopic material there', async () => {
  // The dispatch window is open, so the dispatch flow holds nothing.
  await red.deploy(adminToken, bothFlows({ LOCATION_ID: String(locationId), WINDOW_START: clock(-60), WINDOW_END: clock(60) }));
  await reading(31);
  const stored = await eventually('the reading stored on the location', async () => {
    const series = await dash.request('GET', `/api/inventory/locations/${locationId}/climate`, { token: printToken });
    return series.json.readings?.find((r: any) => r.humidity_pct === 31);
  });
  assert.equal(stored.temperature_c, 21.5);
  assert.equal(await held(jobIds.pa), false);

  await reading(55);
  await eventually('the PA job held', async () => await held(jobIds.pa));
  const alert = await eventually('the alert of the flow', async () => {
    const list = await dash.request('GET', '/api/notifications', { token: printToken });
    return list.json.items.find((n: any) => n.kind === 'automation.climate');
  });
  assert.equal(alert.level, 'warning');
  assert.match(alert.title, /Humidity 55 % at Dry box is above 40 %/);
  assert.match(alert.message, /Held 1 job\(s\) that need PA6-CF/);
  assert.equal(await held(jobIds.pla), false, 'PLA is not hygroscopic');

  await reading(30);
  await eventually('the PA job released', async () => !(await held(jobIds.pa)));
  assert.equal(await held(jobIds.manual), true, 'a job held by hand stays held');
});

test('queue dispatch: outside the window the queue is paused, a job added meanwhile waits; cheap power resumes it, dear pauses it', async () => {
  await red.deploy(adminToken, bothFlows({ LOCATION_ID: String(locationId), WINDOW_START: clock(120), WINDOW_END: clock(180), CHEAP_PRICE: '0.15' }));
  await inject('dispatch-tick');
  await eventually('the queue paused for the window', async () => (await pauseReasons()).includes('dispatch-window'));
  assert.equal(await held(jobIds.pa), false, 'the pause holds back the whole queue, no job is held one by one');

  // The gap of the per-job holds: a job added outside the window must not start before the next tick.
  const late = await postJob(dash, 'late.gcode', gcodeFile([['PLA', '#000000', 10]]), { name: 'late' }, printToken);
  assert.equal(late.status, 201, late.text);
  assert.equal(late.json.waiting_reason, 'queue paused: dispatch-window');

  await inject('dispatch-price-try', [
    { p: 'topic', v: 'price', vt: 'str' },
    { p: 'payload', v: '0.08', vt: 'num' },
  ]);
  await eventually('the queue resumed', async () => (await pauseReasons()).length === 0);
  await eventually('the late job no longer waits for the pause', async () => {
    const now = await dash.request('GET', `/api/queue/${late.json.id}`, { token: printToken });
    return now.json.waiting_reason !== 'queue paused: dispatch-window';
  });
  assert.equal(await held(jobIds.manual), true, 'a job held by hand stays held');

  await inject('dispatch-price-try', [
    { p: 'topic', v: 'price', vt: 'str' },
    { p: 'payload', v: '0.40', vt: 'num' },
  ]);
  await eventually('paused again', async () => (await pauseReasons()).includes('dispatch-window'));
});
