// The dashboard in a real browser: Debian's Chromium, headless, driven by playwright-core,
// against a gateway with the default plugins (dashboard, keys, audit, tagging among them) plus
// failover, the local OpenAI mock as `openai` and a second one as `openai-eu` (its gpt-4o
// fails; its other answers are scripted per question); traffic sent through the openai SDK. Each screen is saved as a PNG under
// test-output/dashboard/ (gitignored) for a person to look at. Code run in the page is passed
// as strings: this file is typechecked with the gateway's Node types, without the DOM's.
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../core/config.js';
import { fixtureJson } from '../../test/helpers/fixtures.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import { sendJson } from '../../test/helpers/mock-provider.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { waitFor } from '../../test/helpers/net.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { DASHBOARD_BUILD_DIR } from './build-dir.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const SHOTS = join(REPO_ROOT, 'test-output', 'dashboard');
const MODEL = 'openai/gpt-4o-mini';
const CHAT_ID = 'chat-7f3a';
// openai-eu's answers, by the last question asked; anything else gets "Hello, World!".
const ANSWERS: Record<string, string> = {
  'What is the capital of France?': 'Paris.',
  'And of Italy?': 'Rome.',
  'Which of the two is older?': 'Rome: it was founded in the 8th century BC, and Paris grew from a Gaulish settlement of the 3rd century BC.',
};

/** A second OpenAI-compatible upstream: gpt-4o answers 500, other models a scripted answer. */
async function startEuMock(): Promise<MockProvider> {
  const eu = await startOpenAIMock();
  const completion = fixtureJson<{ choices: Array<{ message: { content: string } }> }>('recorded/openai/chat_completion.json');
  eu.on('POST', '/v1/chat/completions', (req, res) => {
    const body = req.json as { model: string; messages: Array<{ content: string }> };
    if (body.model === 'gpt-4o') return sendJson(res, 500, { error: { message: 'scripted outage', type: 'server_error', code: null } });
    const answer = ANSWERS[body.messages.at(-1)!.content] ?? 'Hello, World!';
    sendJson(res, 200, { ...completion, choices: [{ ...completion.choices[0], message: { ...completion.choices[0]!.message, content: answer } }] });
  });
  return eu;
}

describe('dashboard in Chromium @integration', function () {
  this.timeout(90_000);
  let mock: MockProvider;
  let eu: MockProvider;
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let secret = 'sk-test-master-0123456789';

  const shot = (name: string, fullPage = true): Promise<Buffer> => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
  const open = (screen: string): Promise<unknown> => page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: screen }).click();
  const chat = (key: string, user: string, content: string): Promise<OpenAI.ChatCompletion> =>
    gw.client(key).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content }] }, { headers: { 'x-user': user } });

  before(async function () {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    if (!existsSync(join(DASHBOARD_BUILD_DIR, 'index.html'))) throw new Error('the dashboard is not built: npm run build:dashboard (npm test does)');
    mkdirSync(SHOTS, { recursive: true });
    mock = await startOpenAIMock();
    eu = await startEuMock();
    gw = await startTestGateway({
      env: { ...openAIEnv(mock), TAGGING_HEADER_1: 'x-user', TAGGING_HEADER_1_PREFIX: 'user', TAGGING_HEADER_2: 'X-OpenWebUI-Chat-Id', TAGGING_HEADER_2_PREFIX: 'chat' },
      config: {
        providers: { 'openai-eu': { type: 'openai', base_url: `${eu.url}/v1`, api_key: 'sk-eu-upstream' } },
        // One failure opens a target's breaker for a minute.
        plugins: [...defaultPlugins(), { name: 'failover', options: { retry: { max_retries: 0 }, breaker: { failure_threshold: 1, cooldown_ms: 60_000 } } }],
      },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, colorScheme: 'light' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gw.url });
    page = await context.newPage();
    await page.goto(`${gw.url}/dashboard/`);
  });

  after(async () => {
    await browser?.close();
    await gw?.close();
    await mock?.close();
    await eu?.close();
  });

  it('refuses a wrong key with a clear message and keeps nothing', async () => {
    await page.getByLabel('Master key or admin key').fill('sk-not-the-master-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).to.equal('That key was not accepted. Check it and try again.');
    expect(await page.evaluate('sessionStorage.length')).to.equal(0);
    await shot('sign-in-wrong-key');
  });

  it('signs in with the master key from the keyboard, kept in the session only', async () => {
    await page.getByLabel('Master key or admin key').fill(gw.masterKey);
    await page.getByLabel('Master key or admin key').press('Enter');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await page.evaluate('Object.values(sessionStorage)')).to.deep.equal([gw.masterKey]);
    expect(page.url()).to.equal(`${gw.url}/dashboard/`);
  });

  it('creates a key with labels, budget and limits and shows its secret once', async () => {
    await page.getByRole('button', { name: 'Create key' }).click();
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Name', { exact: true }).fill('support team');
    await form.getByLabel('Labels').fill('team=support');
    await form.getByLabel('Budget (USD)').fill('5');
    await form.getByLabel('Budget period').selectOption('monthly');
    await form.getByLabel('Requests per minute').fill('600');
    await form.getByRole('button', { name: 'Create' }).click();
    secret = (await page.getByLabel('Secret').textContent()) ?? '';
    const keys = (await (await gw.fetch('/admin/keys')).json()) as { data: Array<{ name: string; labels: unknown; budget: unknown; rate_limit: unknown }> };
    expect(keys.data.map((k) => [k.name, k.labels, k.budget, k.rate_limit])).to.deep.equal([['support team', { team: 'support' }, { amount_usd: 5, period: 'monthly' }, { rpm: 600, tpm: null, concurrent: null }]]);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(secret);
    await shot('keys-created');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await page.getByRole('cell', { name: 'support team' }).waitFor();
    expect(await page.content()).not.to.include(secret);
    await shot('keys');
  });

  it('shows usage by label with each value\'s requests, tokens and cost, as /admin/usage does', async () => {
    await chat(secret, 'alice', 'hello from alice');
    await chat(secret, 'alice', 'hello again from alice');
    await chat(secret, 'bob', 'hello from bob');
    await open('Usage');
    await page.getByLabel('Group by').selectOption('label');
    await page.getByLabel('Label name').fill('user');
    const usageCalls: URLSearchParams[] = [];
    const record = (request: { url(): string }): void => {
      const url = new URL(request.url());
      if (url.pathname === '/admin/usage') usageCalls.push(url.searchParams);
    };
    page.on('request', record);
    await page.getByRole('button', { name: 'Show' }).click();
    const table = page.getByRole('table', { name: 'Usage by label:user' });
    await table.getByRole('rowheader', { name: 'bob' }).waitFor();
    await page.getByText('Cost over time (USD per hour)').waitFor();
    page.off('request', record);
    // The table's call and one for cost over time: the last 7 days per hour, totals.
    expect(usageCalls.map((p) => [p.get('group_by'), p.get('bucket')])).to.have.deep.members([
      ['label:user', null],
      [null, 'hour'],
    ]);
    // The recorded completion counts 17 input and 4 output tokens; gpt-4o-mini costs $0.15 and
    // $0.60 per million: 17 × 0.15 + 4 × 0.6 = 4.95 µ$ a call.
    const rows = await Promise.all((await table.locator('tbody tr').all()).map((tr) => tr.locator('th, td').allTextContents()));
    expect(rows).to.deep.equal([
      ['alice', '2', '34', '8', '42', '$0.0000099'],
      ['bob', '1', '17', '4', '21', '$0.00000495'],
    ]);
    const api = (await (await gw.fetch('/admin/usage?group_by=label:user')).json()) as { data: Array<{ value: string; cost_usd: string }> };
    expect(api.data.map((r) => `$${r.cost_usd}`)).to.deep.equal([rows[0]![5], rows[1]![5]]);
    await page.locator('.chart canvas').first().waitFor();
    await shot('usage');
  });

  it('opens an audit entry and shows its request body pretty-printed', async () => {
    await open('Audit log');
    await page.getByLabel('Text in bodies').fill('hello from bob');
    await page.getByRole('button', { name: 'Filter' }).click();
    // The unfiltered page stays on screen until the filtered one arrives.
    await waitFor(async () => (await page.locator('tbody tr').count()) === 1, 10_000, 'the filtered page');
    expect(await page.locator('tbody tr').allTextContents()).to.have.lengthOf(1).and.satisfy((rows: string[]) => rows[0]!.includes('user=bob'));
    await shot('audit');
    await page.locator('tbody tr a').click();
    const body = page.getByLabel('Request body', { exact: true });
    expect(JSON.parse((await body.textContent()) ?? '')).to.deep.equal({ model: MODEL, messages: [{ role: 'user', content: 'hello from bob' }] });
    expect(await body.textContent()).to.include('\n  "messages": [\n');
    expect(await page.locator('.facts').textContent()).to.include('user=bob');
    await shot('audit-entry');
  });

  it('shows each provider\'s health: requests, errors, rate, durations, the last error and the breaker a failing call opened', async () => {
    await gw.client().chat.completions.create({ model: 'openai-eu/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    const failed = await gw
      .client()
      .chat.completions.create({ model: 'openai-eu/gpt-4o', messages: [{ role: 'user', content: 'hello' }] })
      .then(
        () => 200,
        (err: { status: number }) => err.status,
      );
    expect(failed).to.equal(502);
    // A call no provider served has no cost (null): the audit log says "unknown", never "$null".
    const missing = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'nowhere/model', messages: [{ role: 'user', content: 'hello' }] }) });
    expect(missing.status).to.equal(404);
    await open('Audit log');
    await page.getByLabel('Status').fill('404');
    await page.getByRole('button', { name: 'Filter' }).click();
    await waitFor(async () => (await page.locator('tbody tr').count()) === 1, 10_000, 'the refused call');
    const cells = await page.locator('tbody tr td').allTextContents();
    expect([cells[1], cells[2], cells[6]]).to.deep.equal(['404', 'nowhere/model', 'unknown']);
    await open('Models');
    const table = page.getByRole('table', { name: 'Provider health' });
    await table.getByRole('rowheader', { name: 'openai-eu' }).waitFor();
    const api = ((await (await gw.fetch('/admin/providers')).json()) as { data: Array<Record<string, unknown>> }).data;
    const ms = (name: string, field: string): string => `${(api.find((p) => p['name'] === name)![field] as number).toFixed(1)} ms`;
    const models = (name: string): string => String(api.find((p) => p['name'] === name)!['models']);
    const lastError = api.find((p) => p['name'] === 'openai-eu')!['last_error'] as { time: string };
    const until = (api.find((p) => p['name'] === 'openai-eu')!['breakers'] as Array<{ until: string }>)[0]!.until;
    const utc = (iso: string): string => `${iso.slice(0, 19).replace('T', ' ')} UTC`;
    const rows = await Promise.all((await table.locator('tbody tr').all()).map((tr) => tr.locator('th, td').allTextContents()));
    // openai: the three usage calls above. openai-eu: one answer, one 500 (answered 502).
    expect(rows).to.deep.equal([
      ['openai', mock.url, models('openai'), '3', '0', '0', '0.00%', ms('openai', 'avg_duration_ms'), ms('openai', 'p95_duration_ms'), '—', 'all closed'],
      [
        'openai-eu openai',
        eu.url,
        models('openai-eu'),
        '2',
        '1',
        '0',
        '50.00%',
        ms('openai-eu', 'avg_duration_ms'),
        ms('openai-eu', 'p95_duration_ms'),
        `${utc(lastError.time)}502 server_errorscripted outage`,
        `openai-eu/gpt-4o open until ${utc(until)} (1 failure)`,
      ],
    ]);
    expect(Number(models('openai-eu'))).to.be.greaterThan(0);
    await page.getByRole('region', { name: 'Providers', exact: true }).screenshot({ path: join(SHOTS, 'providers.png') });
  });

  it('lists the models with their prices', async () => {
    const row = page.getByRole('table', { name: 'Models with prices' }).getByRole('row').filter({ has: page.getByText(MODEL, { exact: true }) });
    await row.waitFor();
    expect((await row.locator('td').allTextContents()).slice(3)).to.deep.equal(['$0.15', '$0.075', '$0.6']);
    // The list runs to hundreds of rows: the first screenful shows what it looks like.
    await shot('models', false);
  });

  it('shows a conversation: the three calls of one chat id, oldest first, each question beside its answer', async () => {
    const history: Array<{ role: 'user' | 'assistant'; content: string }> = [];
    for (const question of Object.keys(ANSWERS)) {
      history.push({ role: 'user', content: question });
      const answer = await gw.client().chat.completions.create({ model: 'openai-eu/gpt-4o-mini', messages: history }, { headers: { 'X-OpenWebUI-Chat-Id': CHAT_ID } });
      history.push({ role: 'assistant', content: answer.choices[0]!.message.content! });
    }
    await open('Audit log');
    await page.getByLabel('Label').fill(`chat:${CHAT_ID}`);
    await page.getByRole('button', { name: 'Filter' }).click();
    await waitFor(async () => (await page.locator('tbody tr').count()) === 3, 10_000, 'the chat\'s three calls');
    await page.locator('tbody tr a').first().click();
    await page.getByRole('link', { name: `Conversation chat=${CHAT_ID}` }).click();
    await page.getByRole('heading', { name: 'Conversation' }).waitFor();
    const calls = page.getByRole('listitem').filter({ has: page.getByRole('group', { name: 'User' }) });
    await waitFor(async () => (await calls.count()) === 3, 10_000, 'the three calls');
    const said = await Promise.all((await calls.all()).map(async (call) => [await call.getByRole('group', { name: 'User' }).locator('p').textContent(), await call.getByRole('group', { name: 'Assistant' }).locator('p').textContent()]));
    expect(said).to.deep.equal(Object.entries(ANSWERS));
    expect(await page.getByText(`Every call labelled chat=${CHAT_ID}, oldest first: 3 calls.`).count()).to.equal(1);
    // Each call's model, tokens and cost (the scripted answers keep the recorded usage: 17 in, 4 out).
    expect(await calls.first().locator('.call-meta').textContent()).to.include('openai-eu/gpt-4o-mini17 in, 4 out$0.00000495');
    await shot('conversation');
    await calls.nth(1).getByRole('link', { name: 'Full entry' }).click();
    const body = JSON.parse((await page.getByLabel('Request body', { exact: true }).textContent()) ?? '') as { messages: unknown[] };
    expect(body.messages).to.deep.equal(history.slice(0, 3));
  });

  it('edits the key\'s budget', async () => {
    await open('Keys');
    await page.getByRole('row').filter({ hasText: 'support team' }).getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit support team' });
    expect(await form.getByLabel('Labels').inputValue()).to.equal('team=support');
    await form.getByLabel('Budget (USD)').fill('12.5');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('of $12.5 monthly').waitFor();
    const keys = (await (await gw.fetch('/admin/keys')).json()) as { data: Array<{ budget: unknown; labels: unknown }> };
    expect(keys.data.map((k) => [k.budget, k.labels])).to.deep.equal([[{ amount_usd: 12.5, period: 'monthly' }, { team: 'support' }]]);
  });

  it('disables the key, whose next call is then refused', async () => {
    const row = page.getByRole('row').filter({ hasText: 'support team' });
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByRole('cell', { name: 'disabled', exact: true }).waitFor();
    const refused = await chat(secret, 'alice', 'after disabling').then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).to.be.instanceOf(OpenAI.APIError);
    expect([(refused as InstanceType<typeof OpenAI.APIError>).status, (refused as InstanceType<typeof OpenAI.APIError>).code]).to.deep.equal([403, 'key_disabled']);
    await shot('keys-disabled');
  });

  it('reads in dark mode', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await open('Usage');
    await page.locator('.chart canvas').nth(1).waitFor();
    expect(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')).to.equal('rgb(20, 23, 27)');
    await shot('usage-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('signs out and forgets the key', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Master key or admin key').waitFor();
    expect(await page.evaluate('sessionStorage.length')).to.equal(0);
  });

  it('refuses to sign in with the disabled key, saying why', async () => {
    await page.getByLabel('Master key or admin key').fill(secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).to.equal('That key was refused: this API key is disabled.');
    expect(await page.evaluate('sessionStorage.length')).to.equal(0);
  });

  it('deletes the key after a confirmation', async () => {
    await page.getByLabel('Master key or admin key').fill(gw.masterKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await open('Keys');
    await page.getByRole('row').filter({ hasText: 'support team' }).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).to.include('Delete key support team?');
    await shot('keys-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No keys yet.').waitFor();
    expect(((await (await gw.fetch('/admin/keys')).json()) as { data: unknown[] }).data).to.deep.equal([]);
  });
});
