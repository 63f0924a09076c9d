// The localqueue dashboard: plain JavaScript, no library. Everything it shows comes from the page's own JSON
// routes; every value enters the page as text (never as HTML), and the page holds no inline script, so a strict
// Content-Security-Policy applies. The view lives in the URL's query (?queue=…&state=…&after=…, ?queue=…&job=…,
// ?subscription=…), so every view can be bookmarked and the back button works.

const meta = name => document.querySelector(`meta[name="localqueue-${name}"]`).content;
const BASE = meta('path');
const READ_ONLY = meta('read-only') === 'true';
const MODE = meta('mode');
const REFRESH_MILLIS = Number(meta('refresh-millis')) || 2000;
const CSRF_HEADER = meta('csrf-header');
const CSRF_TOKEN = meta('csrf-token');
const STATES = ['ready', 'delayed', 'leased', 'failed'];
const STATE_LABELS = {ready: 'Ready', delayed: 'Delayed', leased: 'Leased', failed: 'Dead letters'};
const STATE_NOUNS = {ready: 'ready job(s)', delayed: 'delayed job(s)', leased: 'leased job(s)', failed: 'dead letter(s)'};

let overview = null;
let overviewAt = 0;
let timer = null;

// ---- small DOM helpers: every value is set as text ----

function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
        if (value === null || value === undefined || value === false) continue;
        if (key === 'text') node.textContent = String(value);
        else if (key === 'class') node.className = value;
        else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
        else if (key.startsWith('data')) node.setAttribute(key.replace(/[A-Z]/g, c => '-' + c.toLowerCase()), value);
        else node.setAttribute(key, value === true ? '' : value);
    }
    for (const child of children.flat()) {
        if (child === null || child === undefined || child === false) continue;
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
}

function link(params, text, attrs = {}) {
    return el('a', {href: url(params), onclick: event => navigate(event, params), ...attrs}, text);
}

function url(params) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
        if (value !== null && value !== undefined && value !== '') query.set(key, value);
    }
    const text = query.toString();
    return BASE + (text ? '?' + text : '');
}

function navigate(event, params) {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button === 1) return;
    event.preventDefault();
    history.pushState(null, '', url(params));
    render();
}

function table(headers, rows, empty) {
    if (rows.length === 0) return el('p', {class: 'muted', text: empty});
    return el('table', {},
        el('thead', {}, el('tr', {}, headers.map(h => el('th', {class: h.num ? 'num' : null, text: h.label ?? h})))),
        el('tbody', {}, rows));
}

const num = value => el('td', {class: 'num', text: value === null || value === undefined ? '—' : value.toLocaleString('en')});

function age(seconds) {
    if (seconds === null || seconds === undefined) return '—';
    if (seconds < 1) return (seconds * 1000).toFixed(0) + ' ms';
    if (seconds < 120) return seconds.toFixed(1) + ' s';
    if (seconds < 7200) return (seconds / 60).toFixed(1) + ' min';
    return (seconds / 3600).toFixed(1) + ' h';
}

const when = iso => iso ? new Date(iso).toLocaleString() : '—';

const rate = perMinute => perMinute === null || perMinute === undefined ? '—'
    : perMinute >= 100 ? Math.round(perMinute).toLocaleString('en') : perMinute.toFixed(1);

function say(text, bad = false) {
    const box = document.getElementById('message');
    box.textContent = text;
    box.className = bad ? 'bad' : '';
    box.hidden = false;
}

// ---- talking to the application ----

async function read(path, params = {}) {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${BASE}/api/${path}${query ? '?' + query : ''}`,
        {headers: {Accept: 'application/json'}, credentials: 'same-origin'});
    const body = await response.json().catch(() => ({error: response.statusText}));
    if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
    return body;
}

async function act(request) {
    const headers = {'Content-Type': 'application/json', Accept: 'application/json'};
    if (CSRF_HEADER && CSRF_TOKEN) headers[CSRF_HEADER] = CSRF_TOKEN;
    let body;
    try {
        const response = await fetch(`${BASE}/api/action`,
            {method: 'POST', headers, credentials: 'same-origin', body: JSON.stringify(request)});
        body = await response.json().catch(() => ({}));
        if (!response.ok) {
            const reason = body.message || body.error
                || (response.status === 403 ? 'refused (403): you may not act here' : response.statusText);
            say(`${request.action}: ${reason}`, true);
            return false;
        }
    } catch (failure) {
        say(`${request.action}: ${failure.message}`, true);
        return false;
    }
    say(body.message || 'done');
    overviewAt = 0;
    await render();
    return true;
}

function actionButton(label, request, attrs = {}) {
    return el('button', {
        type: 'button', disabled: READ_ONLY, title: READ_ONLY ? `The dashboard is ${MODE}` : null,
        onclick: () => act(typeof request === 'function' ? request() : request), ...attrs
    }, label);
}

// An action on many jobs asks first, in the page: the first click shows what will happen, the second does it.
function confirmedButton(label, question, request, attrs = {}) {
    const holder = el('span', {});
    const ask = el('button', {
        type: 'button', disabled: READ_ONLY, class: 'danger', ...attrs, onclick: () => {
            holder.replaceChildren(el('span', {class: 'confirm'}, question + ' ',
                el('button', {type: 'button', class: 'danger', dataAction: 'confirm', onclick: () => act(request())},
                    'Confirm'),
                el('button', {type: 'button', onclick: () => holder.replaceChildren(ask)}, 'Cancel')));
        }
    }, label);
    holder.append(ask);
    return holder;
}

// ---- the views ----

async function render() {
    const params = new URLSearchParams(location.search);
    document.getElementById('mode').textContent = MODE;
    try {
        if (params.get('subscription')) await renderSubscription(params.get('subscription'), params.get('offset'));
        else if (params.get('queue') && params.get('job')) await renderJob(params.get('queue'), params.get('job'));
        else if (params.get('queue')) await renderQueue(params.get('queue'), params.get('state') || 'ready',
            params.get('after'));
        else await renderOverview();
    } catch (failure) {
        document.getElementById('view').replaceChildren(el('section', {},
            el('p', {class: 'dead', text: failure.message})));
    }
}

async function loadOverview() {
    if (!overview || Date.now() - overviewAt >= REFRESH_MILLIS / 2) {
        overview = await read('overview');
        overviewAt = Date.now();
        document.getElementById('freshness').textContent =
            'updated ' + new Date(overview.generatedAt).toLocaleTimeString();
    }
    return overview;
}

function crumbs(...parts) {
    document.getElementById('crumbs').replaceChildren(...parts);
}

function limits(queue) {
    const parts = [];
    if (queue.maxConcurrent !== null) parts.push(`max ${queue.maxConcurrent} at once`);
    if (queue.maxConcurrentPerKey !== null) parts.push(`max ${queue.maxConcurrentPerKey} per key`);
    if (queue.rateLimitPermits !== null) parts.push(`${queue.rateLimitPermits} per ${queue.rateLimitPeriodSeconds} s`);
    if (queue.maxPendingJobs !== null) parts.push(`at most ${queue.maxPendingJobs.toLocaleString('en')} pending`);
    return parts.join(', ') || '—';
}

function pauseButton(request, paused) {
    return paused ? actionButton('Resume', {...request, action: 'resume'}, {dataAction: 'resume'})
        : actionButton('Pause', {...request, action: 'pause'}, {dataAction: 'pause'});
}

async function renderOverview() {
    const data = await loadOverview();
    crumbs();
    document.title = 'localqueue';
    const view = [];
    view.push(el('section', {id: 'queues'}, el('h2', {text: 'Queues'}), table(
        ['Queue', {label: 'Ready', num: 1}, {label: 'Delayed', num: 1}, {label: 'Leased', num: 1},
            {label: 'Dead', num: 1}, {label: 'Lag', num: 1}, {label: 'Done / min', num: 1}, 'Controls', 'State', ''],
        data.queues.map(q => el('tr', {dataQueue: q.name},
            el('td', {}, link({queue: q.name}, q.name)),
            num(q.ready), num(q.delayed), num(q.leased),
            el('td', {class: 'num'}, q.dead > 0 ? link({queue: q.name, state: 'failed'}, q.dead.toLocaleString('en'),
                {class: 'dead'}) : '0'),
            el('td', {class: 'num', text: age(q.lagSeconds)}),
            el('td', {class: 'num', text: rate(q.throughputPerMinute)}),
            el('td', {text: limits(q)}),
            el('td', {}, el('span', {class: 'badge ' + (q.paused ? 'paused' : 'running'),
                text: q.paused ? 'paused' : 'running', title: q.pausedBy ? 'paused by ' + q.pausedBy : null})),
            el('td', {}, pauseButton({queue: q.name}, q.paused)))),
        'No queues yet.')));
    const listeners = data.queues.flatMap(q => q.listeners.map(l => ({...l, queue: q.name})));
    view.push(el('section', {id: 'listeners'}, el('h2', {text: 'Listeners of this instance'}), table(
        ['Listener', 'Queue', 'State', {label: 'Jobs in hand', num: 1}],
        listeners.map(l => el('tr', {},
            el('td', {text: l.id}), el('td', {}, link({queue: l.queue}, l.queue)),
            el('td', {text: !l.running ? 'stopped' : l.paused ? 'paused here' : 'running'}), num(l.activeJobs))),
        'No listeners run in this instance.')));
    if (data.recurring) {
        view.push(el('section', {id: 'recurring'}, el('h2', {text: 'Recurring jobs'}), table(
            ['Id', 'Schedule', 'Queue', 'State', 'Last tick', 'Next tick', ''],
            data.recurring.map(r => el('tr', {dataRecurring: r.id},
                el('td', {text: r.id}), el('td', {text: `${r.cron} (${r.zone})`}),
                el('td', {}, link({queue: r.queue}, r.queue)),
                el('td', {}, el('span', {class: 'badge ' + (r.orphaned ? 'bad' : r.enabled ? 'good' : ''),
                    text: r.orphaned ? 'orphaned' : r.enabled ? 'enabled' : 'disabled'})),
                el('td', {text: when(r.lastTick)}), el('td', {text: r.enabled ? when(r.nextTick) : '—'}),
                el('td', {},
                    r.enabled ? actionButton('Disable', {recurring: r.id, action: 'disable'}, {dataAction: 'disable'})
                        : actionButton('Enable', {recurring: r.id, action: 'enable'}, {dataAction: 'enable'}),
                    actionButton('Run now', {recurring: r.id, action: 'run-now'}, {dataAction: 'run-now'})))),
            'No recurring jobs.')));
    }
    if (data.bus) {
        view.push(el('section', {id: 'subscriptions'}, el('h2', {text: `Event bus '${data.bus.name}'`}), table(
            ['Subscription', 'Routes', {label: 'Ready', num: 1}, {label: 'Leased', num: 1}, {label: 'Dead', num: 1},
                {label: 'Lag', num: 1}, {label: 'Done / min', num: 1}, 'State', ''],
            data.bus.subscriptions.map(s => el('tr', {dataSubscription: s.name},
                el('td', {}, link({subscription: s.name}, s.name)), el('td', {text: s.routes.join(', ')}),
                num(s.ready), num(s.leased),
                el('td', {class: 'num' + (s.dead > 0 ? ' dead' : ''), text: s.dead.toLocaleString('en')}),
                el('td', {class: 'num', text: age(s.lagSeconds)}),
                el('td', {class: 'num', text: rate(s.throughputPerMinute)}),
                el('td', {}, el('span', {class: 'badge ' + (s.paused ? 'paused' : 'running'),
                    text: s.paused ? 'paused' : s.consuming ? 'consuming' : 'not consumed here'})),
                el('td', {}, pauseButton({subscription: s.name}, s.paused),
                    s.dead > 0 ? confirmedButton('Replay dead letters', `Replay every dead letter of '${s.name}'?`,
                        () => ({subscription: s.name, action: 'retry-dead-letters'})) : null))),
            'No subscriptions.'),
            el('h2', {text: 'Executions'}), table(
                ['Execution', 'Source', 'State', 'Started', {label: 'Items read', num: 1},
                    {label: 'Deliveries', num: 1}],
                data.bus.storedExecutions.map(x => el('tr', {},
                    el('td', {text: x.executionId}), el('td', {text: x.sourceName}),
                    el('td', {text: x.completedAt ? 'complete' : x.sourceCompletedAt ? 'source read, deliveries pending'
                        : 'reading its source'}),
                    el('td', {text: when(x.createdAt)}), num(x.itemsCommitted), num(x.deliveriesInserted))),
                'No executions.')));
    }
    document.getElementById('view').replaceChildren(...view);
}

function queueSummary(name, data) {
    const queue = data.queues.find(q => q.name === name);
    return el('section', {id: 'summary'}, el('h2', {}, `Queue '${name}' `,
        queue ? el('span', {class: 'badge ' + (queue.paused ? 'paused' : 'running'),
            text: queue.paused ? 'paused' : 'running'}) : null),
        queue ? el('p', {},
            `${queue.ready.toLocaleString('en')} ready, ${queue.delayed.toLocaleString('en')} delayed, `
            + `${queue.leased.toLocaleString('en')} leased, ${queue.dead.toLocaleString('en')} dead; `
            + `lag ${age(queue.lagSeconds)}; controls: ${limits(queue)}; counted ${age(queue.observedAgeSeconds)} ago. `,
            pauseButton({queue: name}, queue.paused)) : null);
}

// What an action on every dead letter will change: all of them, or the first action-limit of them.
function upTo(page, data) {
    if (!page.capped && page.count <= data.actionLimit) return `all ${page.count.toLocaleString('en')} dead letter(s)`;
    return `the first ${data.actionLimit.toLocaleString('en')} of ${page.count.toLocaleString('en')}${page.capped ? '+' : ''} `
        + `dead letters (the action limit; run it again for the rest)`;
}

async function renderQueue(name, state, after) {
    const data = await loadOverview();
    crumbs(link({queue: name}, name));
    document.title = `${name} · localqueue`;
    const summary = queueSummary(name, data);
    const page = await read('jobs', {queue: name, state, after: after ?? ''});
    const waiting = state === 'ready' || state === 'delayed';
    const selectable = !READ_ONLY && (waiting || state === 'failed');
    const boxes = [];
    const rows = page.jobs.map(job => {
        const box = selectable ? el('input', {type: 'checkbox', value: job.id, 'aria-label': `job ${job.id}`}) : null;
        if (box) boxes.push(box);
        return el('tr', {dataJob: job.id},
            selectable ? el('td', {}, box) : null,
            el('td', {}, link({queue: name, job: job.id}, String(job.id))),
            el('td', {text: job.jobId ?? '—'}), num(job.priority), el('td', {text: job.key ?? '—'}),
            el('td', {text: when(state === 'leased' ? job.leaseUntil : state === 'failed' ? job.updatedAt : job.dueAt)}),
            el('td', {class: 'num', text: `${job.attempts}/${job.maxAttempts}`}),
            el('td', {class: 'error', text: job.lastError ?? '', title: job.lastError}),
            el('td', {class: 'preview', text: job.preview, title: job.preview}));
    });
    const chosen = () => boxes.filter(b => b.checked).map(b => Number(b.value));
    const count = page.capped ? page.count.toLocaleString('en') + '+' : page.count.toLocaleString('en');
    const tools = el('div', {class: 'toolbar'});
    if (state === 'failed') {
        tools.append(
            actionButton('Retry selected', () => ({queue: name, action: 'retry', ids: chosen()}),
                {dataAction: 'retry-selected'}),
            confirmedButton('Delete selected', 'Delete the selected dead letters for good?',
                () => ({queue: name, action: 'delete', ids: chosen()}), {dataAction: 'delete-selected'}),
            confirmedButton(`Retry all ${count}`, `Move ${upTo(page, data)} back to '${name}'?`,
                () => ({queue: name, action: 'retry', all: true}), {dataAction: 'retry-all'}),
            confirmedButton(`Delete all ${count}`, `Delete ${upTo(page, data)} of '${name}' for good?`,
                () => ({queue: name, action: 'delete', all: true}), {dataAction: 'delete-all'}));
    } else if (waiting) {
        tools.append(
            actionButton('Run selected now', () => ({queue: name, action: 'run-now', ids: chosen()}),
                {dataAction: 'run-now-selected'}),
            confirmedButton('Cancel selected', 'Cancel the selected jobs? They will never run.',
                () => ({queue: name, action: 'cancel', ids: chosen()}), {dataAction: 'cancel-selected'}));
    }
    tools.append(el('button', {type: 'button', onclick: () => render()}, 'Refresh'));
    const wanted = el('input', {type: 'number', min: '1', placeholder: 'Id (a number)', 'aria-label': 'Id of a job',
        dataFind: 'job'});
    const find = event => {
        if (wanted.value) navigate(event, {queue: name, job: wanted.value});
        else say('Type the Id of a job (the number in the first column) to open it.', true);
    };
    wanted.addEventListener('keydown', event => { if (event.key === 'Enter') find(event); });
    tools.append(wanted, el('button', {type: 'button', onclick: find}, 'Open job by Id'));
    const tabs = el('nav', {class: 'tabs', 'aria-label': 'States'}, STATES.map(s => link({queue: name, state: s},
        STATE_LABELS[s], {'aria-current': s === state ? 'page' : null, dataState: s})));
    const pager = el('div', {class: 'pager'},
        after ? link({queue: name, state}, '« First page') : null,
        page.next ? link({queue: name, state, after: page.next}, 'Next page »', {dataPage: 'next'}) : null);
    document.getElementById('view').replaceChildren(summary, el('section', {id: 'jobs'}, tabs,
        el('p', {class: 'muted', text: `${count} ${STATE_NOUNS[state]}`}),
        tools,
        table([...(selectable ? [''] : []), 'Id', 'Job id (unique key)', {label: 'Priority', num: 1}, 'Key',
                state === 'leased' ? 'Lease ends' : state === 'failed' ? 'Failed' : 'Due', {label: 'Attempts', num: 1},
                'Last error', 'Payload'],
            rows, 'None.'), pager));
}

async function renderJob(queue, id) {
    crumbs(link({queue}, queue), el('span', {text: `job ${id}`}));
    const job = await read('job', {queue, id});
    crumbs(link({queue}, queue), link({queue, state: job.state}, STATE_LABELS[job.state] ?? job.state),
        el('span', {text: `job ${id}`}));
    document.title = `job ${id} · ${queue} · localqueue`;
    const fields = [['State', job.state], ['Job id (unique key)', job.jobId], ['Priority', job.priority],
        ['Concurrency key', job.key], ['Attempts', `${job.attempts} of ${job.maxAttempts}`], ['Due', when(job.dueAt)],
        ['Lease ends', when(job.leaseUntil)], ['Created', when(job.createdAt)], ['Last change', when(job.updatedAt)],
        ['Failure reason', job.failureReason], ['Last error', job.lastError], ['Decode error', job.decodeError]];
    const tools = el('div', {class: 'toolbar'});
    if (job.state === 'failed') {
        tools.append(actionButton('Retry', {queue, action: 'retry', ids: [job.id]}, {dataAction: 'retry'}),
            confirmedButton('Delete', `Delete job ${job.id} for good?`, () => ({queue, action: 'delete', ids: [job.id]}),
                {dataAction: 'delete'}));
    } else if (job.state === 'ready' || job.state === 'delayed') {
        const at = el('input', {type: 'datetime-local', 'aria-label': 'New due time', disabled: READ_ONLY});
        tools.append(actionButton('Run now', {queue, action: 'run-now', ids: [job.id]}, {dataAction: 'run-now'}),
            at, actionButton('Reschedule', () => ({queue, action: 'reschedule', ids: [job.id],
                runAt: at.value ? new Date(at.value).toISOString() : null}), {dataAction: 'reschedule'}),
            confirmedButton('Cancel', `Cancel job ${job.id}? It will never run.`,
                () => ({queue, action: 'cancel', ids: [job.id]}), {dataAction: 'cancel'}));
    }
    const headers = Object.entries(job.headers);
    document.getElementById('view').replaceChildren(
        el('section', {id: 'job'}, el('h2', {text: `Job ${job.id} of '${queue}'`}), tools,
            el('dl', {}, fields.filter(([, v]) => v !== null && v !== undefined && v !== '—')
                .flatMap(([k, v]) => [el('dt', {text: k}), el('dd', {text: v})]))),
        el('section', {}, el('h2', {text: `Payload (${job.payloadBytes} bytes stored)`}),
            el('pre', {id: 'payload', text: job.payload})),
        el('section', {}, el('h2', {text: 'Headers'}), table(['Name', 'Value'],
            headers.map(([k, v]) => el('tr', {}, el('td', {text: k}), el('td', {text: v}))), 'No headers.')));
}

async function renderSubscription(name, offset) {
    const data = await loadOverview();
    crumbs(el('span', {text: `subscription ${name}`}));
    const page = await read('dead-deliveries', {subscription: name, offset: offset ?? 0});
    const sub = data.bus?.subscriptions.find(s => s.name === name);
    document.getElementById('view').replaceChildren(
        el('section', {}, el('h2', {text: `Subscription '${name}'`}),
            sub ? el('p', {}, `${sub.ready} ready, ${sub.leased} leased, ${sub.dead} dead; lag ${age(sub.lagSeconds)}; `
                + `counted ${age(sub.observedAgeSeconds)} ago. `, pauseButton({subscription: name}, sub.paused),
                el('button', {type: 'button', onclick: () => { overviewAt = 0; render(); }}, 'Refresh')) : null),
        el('section', {}, el('h2', {text: 'Dead letters'}), table(['Id', 'Event type', 'Failed', 'Reason', 'Last error',
            'Event', ''],
            page.deadLetters.map(d => el('tr', {dataDelivery: d.id},
                el('td', {text: d.id}), el('td', {text: d.eventType ?? ''}), el('td', {text: when(d.updatedAt)}),
                el('td', {text: d.reason ?? ''}),
                el('td', {class: 'error', text: d.lastError ?? ''}),
                el('td', {class: 'preview', text: d.preview, title: d.preview}),
                el('td', {}, actionButton('Replay', {subscription: name, action: 'retry', ids: [d.id]})))),
            'No dead letters.'),
            el('div', {class: 'pager'}, page.offset > 0 ? link({subscription: name}, '« First page') : null,
                page.nextOffset !== null ? link({subscription: name, offset: page.nextOffset}, 'Next page »',
                    {dataPage: 'next'}) : null)));
}

// ---- live refresh, only while the tab is visible ----

function schedule() {
    clearTimeout(timer);
    if (document.visibilityState !== 'visible') return;
    timer = setTimeout(async () => {
        // Only what the shared overview holds refreshes on its own: lists of jobs are read when asked for.
        const params = new URLSearchParams(location.search);
        const focused = document.activeElement;
        const busy = (focused && focused.tagName === 'INPUT') || document.querySelector('.confirm');
        try {
            if (!busy && !params.get('queue') && !params.get('subscription')) {
                overviewAt = 0;
                await render();
            } else if (!busy && params.get('queue') && !params.get('job')) {
                overviewAt = 0;
                const data = await loadOverview();
                document.getElementById('summary')?.replaceWith(queueSummary(params.get('queue'), data));
            }
        } catch (failure) {
            document.getElementById('freshness').textContent = 'not updated: ' + failure.message;
        }
        schedule();
    }, REFRESH_MILLIS);
}

document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
        overviewAt = 0;
        render().then(schedule);
    } else {
        clearTimeout(timer);
    }
});
window.addEventListener('popstate', () => render());
render().then(schedule);
