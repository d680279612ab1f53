// Writes BENCHMARKS.md from bench/results/*.json, so the document always shows the last run.
// `npm run bench` calls it at the end; `npx tsx bench/markdown.mts` rewrites it from the results.
// bench/results is not committed: a benchmark without results there keeps its section (and its
// rows of the summary) from the BENCHMARKS.md being rewritten, so running one benchmark on a
// fresh clone does not wipe the others.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { RESULTS_DIR, round, type Figure, type Results, type Row } from './lib/report.mts';

const ORDER: Array<[string, string]> = [
	['return-all', '1. Return All of 10,000 assets'],
	['upload', '2. Upload of a 200 MB video'],
	['create', '3. Create 1,000 videos'],
	['create-and-wait', '4. Create-and-wait for 1,000 videos'],
	['trigger', '5. Trigger: requests per poll'],
	['rate-limit', '6. At the rate limit: one key, many executions, no headers'],
];

/** What each benchmark does and how to read it; the numbers come from the results. */
const ABOUT: Record<string, string> = {
	'return-all': `Asset > Get Many with Return All through n8n's engine (\`WorkflowExecute\`, test/harness/engine.mts) against a sandbox
holding 10,000 assets in a child process (so the server works on the other core). Contenders run in one process, one
warm-up each (checked: 10,000 distinct ids), then interleaved repetitions with the order rotated; medians.
- *minimal client*: \`fetch\` (undici, keep-alive), page 1 with \`limit=100\`, then pages 2-100 in parallel (as many at a
  time as the node, or all at once); the faster of the two is the reference.
- *HTTP Request node*: n8n-nodes-base's HTTP Request node from the real n8n in \`.n8n-e2e/\`, in the same engine, with
  our credential as a predefined credential type, query \`limit=100\`, and its pagination option as a user would set it
  for this API: mode "Update a Parameter in Each Request", \`page\` = \`{{ $pageCount + 1 }}\`, complete when
  \`{{ $response.body.pagination.next_page === null }}\`. It outputs one item per page (100 items holding the 10,000
  assets); the Split Out node a workflow needs after it is not counted, which favours the HTTP Request node.
- *floor* and *what-if* rows are diagnosis, not targets (the shipped code is not changed): a bare node doing only the
  requests, as many pages in flight as the node, with n8n's \`httpRequestWithAuthentication\` or with plain
  \`httpRequest\` and its own header; our node with the credential as it was before commit 23e8362 (its two notices
  shown by \`_cnd: { regex }\` conditions, patched back in memory), to show what that change saves; and, with latency
  only, our node asking for every page after the first at once (the built module's \`PAGE_CONCURRENCY\` set at run
  time). Until a service shows a limit, the API key's gate (transport/pacer.ts, issue 27) lets one request more be in
  flight per 64 answers, and it lives on between repetitions: after the warm-up and the loopback rounds (over 1,000
  answers) it allows more than 10, so the node's rows show its 10 pages at a time and this row what more would give.
  A first Return All in a fresh n8n process (or after 15 idle minutes) starts one page at a time: in simulated time
  (bucketSimulation.mts, no limit, a 20 ms round trip) 100 pages take 1.85 s against 0.22 s at 10 at a time.`,
	upload: `Asset > Upload of a 200 MB (200,000,000 bytes, the largest video the service takes) MP4. A child process (run with \`--expose-gc\`) loads the engine, does a
small warm-up upload, stores the file in n8n's binary store in filesystem mode (\`binaryItem\` with a file stream, as
a Read File node would), settles the heap, reads its RSS (the baseline), resets the kernel's peak-RSS mark
(\`/proc/self/clear_refs\` 5), runs the upload through the node, and reads the peak (\`VmHWM\`); a 5 ms RSS sampler
cross-checks it. The sandbox runs in the parent and writes the upload to disk. A 20 MB upload runs in the same run,
interleaved, to show the peak does not follow the file size. MB = 10^6 bytes.`,
	create: `Video > Create for 1,000 input items (title and customer data from expressions, template by ID) vs. the HTTP
Request node POSTing the same JSON body (\`JSON.stringify\` expression), same credential, same engine, sandbox in a
child process. With faults: 10% of \`POST /v1/videos\` answer 429 with \`Retry-After\` 0 or 1 (seeded, the same for
both). The HTTP Request node cannot honour Retry-After, so it is measured three ways: as is (the first 429 fails the
run), with n8n's node setting Retry On Fail (3 tries, 1 s apart: the whole node runs again, every item is sent
again), and in the loop a careful user builds (On Error: Continue, failed items through a Wait node as long as
Retry-After, back into the node). "videos created" counts 201 answers at the sandbox.`,
	'create-and-wait': `Video > Create with Wait for Completion for 1,000 items, real sandbox clock, renders of 1 s queue +
3..12 s (10% fail), Check Every 2 s, 10,000 older videos already in the account. The node waits for all items
together: each round is one scan of the video list from its newest end that stops once past the oldest video it
still waits for. A round starts with \`page=1\`, so rounds are counted from the request log. The naive way, a request
per video per round, would cost 1,000 requests per round (there is no single-video endpoint, so it would be worse);
a scan of the whole list costs total/100 pages.`,
	trigger: `The trigger's poll through a real \`PollContext\`, static data round-tripped through JSON between polls as n8n
stores it, manual sandbox clock (docs/architecture.md says how the poll works). At 1,000 / 10,000 / 100,000 videos, the
seed's in-flight videos (65) held in flight: per repetition an idle poll; 50 new videos seen in flight by one poll,
then finished before the next (that next poll is counted); 50 videos created and finished between two polls; last,
50 of the seed's in-flight videos (in flight since before the first poll) finish. Then the situations of issue 22, on
a 100,000-video account: 60 renders in flight since activation, spread over the history, of which 50 finish, on 43
pages of the list (target 2 × (3 + 43) + 5 = 97); and a busy account, 10,000 drafts + 8,400 renders in flight (0.1.0
made 184 requests per idle poll with 8,000): idle polls, 1 render finished (target 20), 50 finished, then a minute
of ordinary finishing: 3,800 renders picked at random finish, the 400 oldest drafts start rendering, 60 new videos
come, 30 of them finish (target 300). Every poll with finished videos is checked to emit exactly those. Each of these
polls is measured twice from the same saved state in the same run: as the trigger runs it, and with its full read of
the in-flight lists due (the \`fullReadAt\` of the state set to 0): the draft and processing lists read end to end in
overlapping windows, as every such poll did before issue 22. Run on the code before issue 22 (commit 712268e, same
benchmark), the four situations cost 375, 115, 358 and 335 requests. The n8n host's clock moves with the sandbox's
(between polls by exactly as much), as real time moves both: the trigger tells the service's time from the videos'
\`created_at\` and the time passed on the host's clock (issue 28). Last, late arrivals (issue 28): 10,000 videos on a
list that shows each new video 1 to 60 s after its \`created_at\` (the sandbox's \`listingLag\`, so it comes in below
videos listed before it, often already finished), 10 new videos a minute for 30 minutes rendering in 12 to 32 s, a poll
a minute, then 3 more: requests per poll, and the events lost or repeated (the benchmark fails on any). Then the same
with lags of 1 s to 3 minutes, beyond the 65 s the trigger allows at first: the lag it allows follows (issue 28), what
is lost must be reported in n8n's log (the benchmark fails on a loss not reported, or a repeat), and each poll reads
as much of the list again as the lag it allows.`,
	'rate-limit': `The sandbox's rate limiter (sandbox/README.md, "Rate limiter"), one limit per API key, \`Retry-After\` in whole
seconds rounded up (so 1 s for a bucket at R >= 1, whatever the real wait). **Main mode: no rate-limit headers** (the
spec shows none, so a real service likely sends only 429 and \`Retry-After\`); the token-bucket cases again with the IETF
draft's \`RateLimit-Limit\`/\`-Remaining\`/\`-Reset\`/\`-Policy\` (a rate told), and again with GitHub's
\`X-RateLimit-Limit\`/\`-Remaining\`/\`-Reset\` (no rate; the time the bucket is full again, in whole Unix seconds). The
cases: Video > Create for 1,000 items in one
execution and Asset > Get Many with Return All of 10,000 assets (N = 100 pages of 100) behind a token bucket at (R, B) =
(10, 10), (10, 2), (10, 1), (2, 2); 40 executions of 25 items at (10, 5) and 100 executions of 2 items at (2, 1),
started together in one process (a CRM that starts one execution per contact); Create 500 while the trigger polls the
same key every 10 s; then limiters other than a stationary bucket (issue 27), at R = 10 requests a second: a fixed
window (50 per 5 s), a sliding window (20 in any 2 s), a bucket (B = 5) that answers 429 without \`Retry-After\`, the
limit lowered from 10 to 5 and raised from 5 to 10 at 10 s (another user of the key starts or stops); and two or three
processes on one key (queue-mode workers: each n8n process has its own gate), started together, one joining at 10 s
with fewer items, or each running many executions; below that rate, a slow bucket of 30 a minute with a burst of
5 (Create 100); last, a service far away (the limiter's \`latencyMs\`: every answer, a 429 too, that much later),
40 executions of 25 items 60 ms away and Create 300 at (10, 2) 100 ms away. N/R is the least time the limit allows (for a limit that changes,
as it was at each moment; the first requests of a burst or a window are free, so a client can finish slightly under
it; with the trigger polling, N counts the polls' requests too, and the run ends when Create and the poll in progress
have ended, not after the 10 s wait that follows: until 2026-11-27 it did, which cost that row up to 0.2 × N/R).
- *node*: the built node through n8n's engine (test/harness/engine.mts) in a child process per n8n process, all
  executions of a process sharing its gate for the key (transport/gate.ts, pacer.ts), stopped at a time box of 6 ×
  N/R ("did not finish"); its pace each second is printed by the run and drawn (below).
- *reference client (knows R)*: what a developer writes for a documented limit (bench/lib/pacedClient.mts, under 110
  lines, none of the node's code): \`fetch\`, the node's concurrency, one request every 1/(0.98 R) s whatever the answers
  say (told when R changes), a 429 sent again after its \`Retry-After\`; for the multi-execution and multi-process cases
  one client for all requests. It knows the rate the node has to learn; it is a floor to compare with, not a contender
  ("(reference)" in the Met column).
Requests and 429s are the limiter's own counters for each key (every request it received, 429s included). For Create,
"created once" counts the videos in the sandbox's store by title. The goal (issues 19 and 27) for the node, in every
row: time <= 1.15 × N/R and <= 2 % of requests answered 429, each video created once; where that cannot be reached, the
learnable bound below (the least time any client that is not told the limit needs). One run per case; the run's length
is in the table's title. The controller is also tested in simulated time against every limiter shape, in seconds
(test/nodes/VideoPersonalization/transport/pacer.test.mts, bucketSimulation.mts), and \`npm run bench:pacer-lab\` runs
this section's cases there, 8 seeds each, in two seconds (for trying a change to the pacer; the trigger's polls as 20
reads one at a time); the design is in docs/architecture.md
("Pacing"). Each run's pace over time is drawn in \`bench/results/rate-limit/*.svg\`; those of the changing limits and of
the workers are in \`docs/rate-limit/\` and shown below the table. Runs share the machine (the load average is in
the Command line): the reference client's rows show what the load cost, since it learns nothing.`,
};

/** The trigger's situations, each beside the same poll with the full read of the in-flight lists. */
function triggerNotes(results: Results): string {
	const rows = (results.details.situationRows ?? []) as Row[];
	if (rows.length === 0) return '';
	return `Trigger: the poll after a change, and the same poll with the full read due (one poll each; ms are wall time)

${markdownTable(rows)}`;
}

/** The reference client's own figures for Create at B = 1 without headers: the spread it also meets. */
function bucketOfOne(rows: Row[]): string {
	const row = rows.find(
		(each) =>
			each.headers === 'none' &&
			each.case === 'Create 1,000' &&
			each['R/s, B'] === '10, 1' &&
			String(each.contender).startsWith('reference'),
	);
	return row
		? ` (the reference client, which knows R, took ${row['× N/R']}× N/R there with ${row['429 share']} answered 429)`
		: '';
}

/** The pictures of the pace over time that bench/rateLimit.mts keeps in docs/rate-limit/. */
function rateLimitPictures(): string {
	const dir = join(process.cwd(), 'docs', 'rate-limit');
	if (!existsSync(dir)) return '';
	const files = readdirSync(dir).filter((file) => file.endsWith('.svg'));
	return files
		.sort()
		.map((file) => `![${file.replace(/-/g, ' ').replace(/\.svg$/, '')}](docs/rate-limit/${file})`)
		.join('\n\n');
}

/** What the rate-limit run shows, with its figures. */
function rateLimitNotes(results: Results): string {
	const nodeRows = results.table.rows.filter((row) => String(row.contender).startsWith('node'));
	if (nodeRows.length === 0) return '';
	const line = (row: Row) =>
		`${row.case} at R, B = ${row['R/s, B']}: ${row.outcome === 'finished' ? `${row['× N/R']}× N/R` : row.outcome}, ${row['429 share']} 429${row['created once'] ? `, ${row['created once']} created` : ''}`;
	const missed = (headers: string) =>
		nodeRows.filter((row) => row.headers === headers && row.met !== 'yes').map(line);
	const summary = (headers: string, name: string) => {
		const rows = nodeRows.filter((row) => row.headers === headers);
		const misses = missed(headers);
		return `- **${name}**: the node met the goal in ${rows.length - misses.length} of ${rows.length} cases${misses.length ? `; not in: ${misses.join('; ')}` : ''}.`;
	};
	return `### What this shows

${summary('none', 'Without headers')}
${summary('RateLimit', 'With RateLimit headers')}
${summary('X-RateLimit', 'With X-RateLimit headers')}

### Learnable bounds: where no client that is not told the limit can reach 1.15 × N/R

Computed in simulated time (the pacer lab of issue 27: idealised clients in front of the same limiters, the machine's
measured arrival jitter of 2-44 ms), then compared with the runs above.
- **Bucket of one (B = 1).** Each request must reach the service at least 1/R after the one before, so the spread of
  arrival times (n8n's request path, the machine's load) costs a 429 or has to be paid as spacing, whether or not the
  client knows R${bucketOfOne(results.table.rows)}. The best any client does is one request at a time, each sent
  1/R after the previous answer less the shortest round trip: 1.16 × N/R for Create 1,000 at (10, 1) in simulation.
- **Return All at (10, 2) and (10, 1)** (100 requests, 10 s at R): the 2 % budget allows two 429s. The first tells only
  the burst (2 or 1 requests passed), the guess is then about B requests a second; only a second 429 can show R, and
  each costs a 1 s pause (\`Retry-After\` rounded up) of which the bucket refills only B requests. An idealised client
  that is told R exactly at its second 429: 1.22 × at (10, 2), 1.44 × at (10, 1). \`X-RateLimit-*\` headers tell no
  rate, only that nothing remains and when the bucket is full again (in whole seconds): the same bounds hold there.
- **A limit raised during the run** is found only by looking above the pace, and each look that finds nothing costs a
  429; within 2 % a client looks about once per 50 requests, so a raise is found on average 25 requests late.
- **Several processes on one key** never talk, and no signal they see carries a scale they share: growth counted in
  each process's own requests (what keeps the 429 share the same at every rate) leaves shares where they start, growth
  in wall time shares fairly but draws a 429 every few requests at R = 1-2. Their total is what the key allows; how it
  is split, and how fast the others find the share of one that leaves, is what costs time (docs/architecture.md,
  "Pacing"). Traced in the pacer lab (32 seeds, 2 workers × 200 started together): of 10.5 429s a run, 4 are each
  process's first 429 and its ramp's, 3.5 come from the other's growth, 1.1 at the cruise and 1.9 from probes; after
  the ramps the two paces add up to 1.3-1.7 × R (each counts the burst they shared as its own); of the 8.4 s lost,
  4.8 s come after one process finished while the other runs alone below R, 2.2 s in pauses and 1.5 s with both
  below R. Two idealised clients told their share R/2 after the same first four 429s take 1.055 × N/R with 1.0 %
  answered 429, so the cost is finding the share, not learning the limit. About 25 changes tried there (the cut, the
  probe's step, the quiet time before a look, K from 32 to 256) each lowered one of time and 429s and raised the
  other; the best under 2 % was 1.19 × (K = 128, with the other multi-process rows slower), so this is not a bound
  any client must pay, only what this design's family reaches.
- **A slow bucket** (30 a minute, B = 5, Create 100). The first 429's \`Retry-After\` (2 s, the time to one token) would
  tell R to a client that read it so; this pacer reads a first wait over a second as a window (what passed over the
  time until the service takes more: 5 in 2.1 s, 2.4 a second, what a fixed window of 50 per 5 s needs). The second
  429, after 1 passed in those 2 s, tells the two apart: the pace is then the estimate, 0.5 a second (a wait over a
  second refills about a token, none lost to a full bucket). Until 2026-11-27 it came down in cuts of 0.7 instead: 9-12
  429s in 100 requests. In simulation now 3-5 429s in about 103 requests: the first two, one look above the pace
  (within 1/64 of the requests) and now and then an estimate a token high; through n8n 3 of 104. Two is what any client
  that must tell a slow bucket from a window pays (one that took every long wait for a bucket would pay one here, and
  crawl behind a window); counting every 429 in the 1/64 budget gets the row to 2.0 % but slows the workers' rows by
  0.03-0.09 ×.
- **A late joiner crowded from its start** (the late-joiner rows): when its second request meets the bucket the others
  keep empty, its first 429 and its first ramp's leave it at what they leave over, about 1 request a second, which is
  also all that a process alone at R = 1, B = 1 sees; there those two 429s are already 2 % of a run of 100. Within 2 % a
  look above the pace comes once per about 50 of its requests (55 s at 1 a second), so a joiner of 100 or 60 items keeps
  its pace after the others leave: 2.9 × N/R for the pair (in simulation 4 seeds of 100, 2.8-2.9 ×; a fifth, seed 86,
  meets a 429 at its cruise whose estimate is not below that pace, is cut far below its best and looks again: 1.79 ×;
  with the burst bound of 2026-11-27, 5 of 100, seed 131 the one that looks again, 1.50 ×; with Create's pause, as
  through n8n, 25 of 100).
  Tried there: a look every 64 answers whatever the budget (BBR's ProbeBW bound) gets 4 of those seeds to 2.2-2.4 ×,
  the fifth not at all; a look every 16 quiet pauses gets them to 1.15-1.63 ×; both take Create 1,000, Return All and
  100 executions at R = 2 from 1.6-2.0 % to 2.2-2.9 % answered 429 (a run of the last two with the first: 2.9 % and
  2.4 %). Counting 0.7 of a refused ramp's pace as the best a process had (so the joiner is stranded and looks) gets
  all 100 seeds within 1.63 × but takes Create 1,000 at R = 2 from 1.0 to 2.4 % and a lone process at R = 1, B = 1 from
  2.0 to 4.1 %; reading no rate from a stretch that passed a single request (it may be the last 429's leftover token)
  gets them within 1.45 × but takes R = 1, B = 5 from 2.4 to 6.7 % and two processes at R = 2 from 1.29 to 1.39 ×.
  pacer.test.mts pins the lone process at 1 a second and seed 131's joiner looking again.
- **A sliding window** (20 per 2 s, 40 executions × 5 items). The first 429 comes after 20 passed in about 0.35 s,
  with a \`Retry-After\` of 2 s for a window that frees 1.65 s later. Whole seconds say only that it frees within (1, 2]
  s, so its rate is anywhere from 20 / 2.35 = 8.5 to 20 / 1.35 = 14.8 a second, and 8.5 (the first guess) is the
  only pace that can draw no further 429. A client that keeps it takes 1.16 × N/R in the pacer lab (32 seeds, at
  most 1.22 ×); any faster pace is a bet that costs a 429 and a second's pause (5 % of this row) when it loses (1.1 ×
  that pace: 1.07 ×; 1.15 × it: 1.24 × with 2.4 % answered 429). So 1.16 × is the bound for a client that risks
  nothing more. The node looks above that pace and comes back to it: through n8n on a quiet machine it is within
  5 % of that bound (1.17-1.21 × in four runs, 1.20 × in the quiet full run above, 1.24 × in a busy one; 1.22 × in
  the lab; below, "A refused look goes back to the pace it left").
- **Far away with a burst of 2** (Create 300 at (10, 2), 100 ms away): no bound keeps this row above 1.15 ×. Told
  the burst, this pacer takes 1.13 × in the lab (31 of 32 seeds meet the goal): it misses by what it cannot measure
  in the stretches it sees (below, "Far from the service: the burst apart from the rate").

### Far from the service (pacer lab): open

The other runs above are on loopback; a real service is tens of milliseconds away, and there the pacer learns less
(the two rows "… ms away" run it through n8n, the sandbox answering that much later). In the pacer lab (\`PACER_LAB_SEEDS=16 PACER_LAB_DELAY=<least>,<most> npm run bench:pacer-lab\`, ms each way, no headers), the
mean × N/R and share answered 429 of some rows:

| case | 2-12 ms (loopback through n8n) | 20-40 ms | 40-60 ms | 80-120 ms |
|---|---|---|---|---|
| Create 1,000 at (10, 10) | 1.02 (0.9 %) | 1.02 (1.0 %) | 1.04 (1.1 %) | 1.13 (1.1 %) |
| Create 1,000 at (10, 2) | 1.09 (0.6 %) | 1.15 (0.7 %) | 1.43 (0.9 %) | 1.28 (0.7 %) |
| Create 1,000 at (2, 2) | 1.01 (1.0 %) | 1.02 (1.0 %) | 1.02 (1.0 %) | 1.03 (1.0 %) |
| 40 executions × 25 items at (10, 5) | 1.07 (0.7 %) | 1.10 (0.8 %) | 1.20 (0.9 %) | 1.26 (1.2 %) |
| Create 500 + the trigger polling every 10 s at (10, 5) | 1.08 (0.7 %) | 1.12 (0.9 %) | 1.20 (0.9 %) | 1.32 (1.2 %) |
| Sliding window of 20 per 2 s | 1.25 (1.5 %) | 1.43 (1.9 %) | 1.41 (1.7 %) | 1.63 (2.0 %) |
| Return All 10,000 at (10, 10) | 1.03 (2.0 %) | 1.04 (2.0 %) | 1.02 (1.1 %) | 1.66 (0 %) |

With the burst bound of 2026-11-27 (the second item below). Before it: at 20-40 ms Create at (10, 2) 1.18 ×, 40 × 25
1.21 × (1.0 %), the trigger's row 1.23 × (1.1 %); at 80-120 ms Create at (10, 10) 1.15 × (1.9 %), at (10, 2) 1.58 ×,
40 × 25 1.32 × (1.8 %), the trigger's row 1.38 × (1.8 %), the sliding window 1.70 × (2.1 %); the rest as now.

- **The cause** (traced before the bound): until the first 429 the key sends one request at a time, one more per 64 answers. Far away,
  one at a time is already near the rate (10 a second at a 100 ms round trip), so the first 429 comes late, and what
  passed before it, which the estimates take for the burst, counts the refill meanwhile: 12 at B = 5 with 20-40 ms, 64
  at B = 2 with 40-60 ms. Each later estimate is the slowest bucket of that burst that let the requests through, and
  stays low: 8.4 a second at R = 10 for 40 × 25 (20-40 ms), 6.8 for Create at (10, 2) (40-60 ms). Return All at
  80-120 ms meets no limit at all: one or two pages in flight is all the start allows (the price README "Pacing"
  names). The same happens through n8n on loopback at (10, 2): Create reads the template first, then nothing is in
  flight for 0.32-0.36 s while n8n reads the items (not a slow first request, as this said until 2026-11-27: "Through
  n8n" below), 3 pass before the first 429 at B = 2, and the estimate after the ramp is 8.5 a second (9.6 in the
  lab), hence 1.16 × through n8n against 1.09 × in the lab.
- **The bound (2026-11-27; replaced on 2026-11-28: "The bound by send times" below).** After each later 429 the burst is
  taken as at most what passed before the first 429, plus one (the token in flight), less what the least rate the
  service surely gave since refilled while requests were going, and never a bucket of one where two passed. The least
  rate: between two 429s, each leaving the bucket empty, at least as many tokens came as requests passed. While requests
  were going: before the first 429, the time with nothing in flight is left out (a full bucket refills nothing; through
  n8n, Create's pause while it reads the items: "Through n8n" below). The bound only lowers the burst and does not
  depend on it, so a wrong estimate cannot feed it. In the lab (rows above, no headers; the three header modes identical
  elsewhere, 32 seeds at loopback): at loopback the 60 ms row 1.20 → 1.11 × (32 of 32 seeds met), the rest within 0.01
  ×; at 20-40 ms (16 seeds) Create 300 100 ms away 1.60 → 1.38 ×, the limit raised 1.15 → 1.11 ×, the joiner pair 1.32 →
  1.36 × (worst 1.53 → 1.99 ×). With Create's pause, as through n8n: at loopback the 60 ms row 1.21 → 1.13 ×, the rest
  within 0.01 ×; at 20-40 ms 40 × 25 1.22 → 1.12 × (16 of 16 met), the trigger's row 1.24 → 1.14 ×, the limit raised
  1.18 → 1.13 ×, the joiner pair 1.41 → 1.27 ×, Create 300 100 ms away 1.60 → 1.39 ×, but 2 workers × 200 1.18 → 1.23 ×
  and 3 workers with a joiner 1.25 → 1.31 × (worst 1.41 → 2.24 ×); at 40-60 ms the limit raised 1.25 → 1.16 ×, Create
  300 100 ms away 1.64 → 1.51 ×, 3 workers 1.38 → 1.44 ×, 3 workers with a joiner 1.27 → 1.32 ×. Of 17 shapes the lab
  does not hold (R from 1 to 20, B from 1 to 40, windows, no \`Retry-After\`, pairs, a joiner, a limit lowered from 20 to
  10; 16 seeds, with and without the pause, loopback and 20-40 ms), one is slower by more than 0.01 ×: the joiner at
  (20, 10) on loopback without the pause, 1.20 → 1.25 × (worst 1.57 → 1.67 ×); faster: R = 20, B = 5 at 20-40 ms 1.34 →
  1.22 × (1.35 → 1.28 × with the pause), 20 executions × 25 at (20, 10) 1.18-1.23 → 1.15-1.17 × in all four, the joiner
  at (20, 10) with the pause 1.21 → 1.16 × on loopback. Of 48 joiner pairs of \`pacer.test.mts\`'s row (5-40 ms) stranded:
  6 without the pause (1 before), 1 with it (none before); on loopback with the pause 25 of 100 (24 before), as through
  n8n (4 of 15 runs). A first version took the rate of the bound from the estimate, which depends on the burst: an
  estimate spanning a limit that fell lowered the burst for good and kept later estimates high (the limit lowered from
  20 to 10, 20-40 ms: 1.10 → 1.18 ×), and it stranded 16 of those 48 joiners; the items below took it so too.
- **Tried, not kept.** Bounding the burst by what the first stretch cannot have refilled (the bucket full at the first
  request and empty at the first 429, so it held at most what passed, plus one, less the estimate × that stretch; the
  bound and the estimate refined together): 40 × 25 at 20-40 ms 1.21 → 1.11 ×, the trigger's row 1.23 → 1.12 ×,
  Create at (10, 2) 1.18 → 1.14 ×, loopback rows within 0.01; but 2 of 16 seeds of the late joiner at 20-40 ms were
  stranded (3.1 ×; mean 1.32 → 1.52 ×; why, in the next item). Counting the burst only since the requests in flight
  last grew: Create at (10, 2) at 40-60 ms 1.43 → 1.14 × on average but 1.44 × at worst, as it counts a burst of 1 at
  B = 2 when the rate had passed the limit before that growth. Both measure the burst and the rate from the same stretch, where only their sum is known (B +
  R × its length); telling them apart needs a stretch of another shape, such as a quick burst after a pause.
- **The same bound again (2026-11-27), and what it costs.** Four variants, none kept:
  - *The bound alone*, refined only downwards until it falls by less than a request, and never to one where two
    passed (a bucket of one is paced apart). Over 32 seeds and the three header modes, every loopback row of the lab
    is unchanged but the 60 ms row (1.20 → 1.11 ×, 32 of 32 seeds met); 16 seeds at 20-40 ms: 40 × 25 1.21 → 1.09 ×,
    the trigger's row 1.23 → 1.12 ×, Create 300 100 ms away 1.60 → 1.26 ×; at 80-120 ms Create at (10, 2) 1.58 →
    1.26 ×. Of 17 shapes the lab does not hold (R from 1 to 20, B from 1 to 40, windows, pairs of processes; 16 seeds,
    loopback), none is worse and two pairs at R = 20 gain (a joiner at worst 1.57 → 1.23 ×). The late joiner pays,
    and not through its own burst (4 passed, the bound leaves 4): the other process now cruises at 8-9 a second
    instead of 6.5-8, the joiner's first ramp leaves it 1-1.3 a second, and that is the best it ever had, so it never
    counts as cut far below it and does not look again. Of \`pacer.test.mts\`'s 12 seeds of that row at 5-40 ms, three
    take 1.9-2.1 × (the test allows 1.75 ×; at most 1.69 × before), though the median falls from 1.27 to 1.15 ×.
  - *With the first guess counted as the best a process had* (so a crowded joiner counts as cut far below it): one of
    the three comes back (2.06 → 1.21 ×) and no loopback row of the lab changes; alone, without the bound, it takes
    that test's worst seed from 1.69 to 1.18 ×. But it costs a lone process whose burst is several seconds of its
    rate, which the lab does not hold (Create 300 at R = 1 with B = 3 or 5: 2.0-2.2 → 4.4-4.5 % answered 429, 16
    seeds), and it does not bring back the next seed (1.92 ×): cut twice more by the other's probes, the last as the
    other leaves, to 0.7 a second, it looks only after 16 answers at that pace (23 s), and its ramp from there takes
    10 s more.
  - *With a stranded process also looking after the quiet pauses alone, ramping as the first ramp does*: all 12 of
    those seeds within 1.65 × (median 1.17 ×), and 3 workers with a joiner at worst 1.78 → 1.47 × on loopback; but
    there 429 without \`Retry-After\` meets the goal in 8 of 32 seeds, not 26 (1.0 → 1.4 % answered 429: that variant
    let every probe, not only a stranded one's, go with fewer than 16 requests still to come), the slow bucket
    answers 12.3 % 429 (9.4 %), and \`pacer.test.mts\` fails there (at most 7 %) and on two processes told the rate.
  - *The nearest to a keeper*: all three, only a stranded look freed from the 16 answers, and each probe that finds
    no more doubling the quiet time a stranded process waits. Over 32 seeds and the three header modes on loopback:
    the 60 ms row 1.20 → 1.11 ×, the slow bucket 9.4 → 11.2 % 429, the multi-process rows within 0.02 × on average (at
    worst 3 workers with a joiner 1.78 → 1.47 ×, the joiner pair 1.36 → 1.45 ×; 2 workers × 40 × 25 meets the goal in
    3 seeds, not 6), the other rows unchanged; 16 seeds at 20-40 ms: the joiner pair 1.32 → 1.23 ×; at 40-60 ms: 2
    workers × 200 1.27 → 1.31 ×. \`pacer.test.mts\` fails only on the slow bucket (7.8 %). Not kept: it costs the slow
    bucket and the workers at 40-60 ms, and it is 16 code lines over \`transport/\`'s budget (pacer.ts and headers.ts
    183 of 180).
- **Why the late joiner decides (2026-11-27, 48 seeds).** On 48 seeds of \`pacer.test.mts\`'s joiner row (300 items,
  and 100 joining at 10 s, R = 10, B = 5, 5-40 ms each way) the pacer as it is strands one joiner (seed 27, 3.04 ×
  N/R: its first ramp leaves it 0.86 a second, which it keeps for 110 s, 83 of them after the other left), and the
  burst bound alone strands 16 (2.9-3.1 ×; mean 1.30 → 1.63 ×) though it lowers the median (1.26 → 1.22 ×). A joiner
  crowded from its start gets what the process already there leaves over, and sees only what a process alone at that
  pace (about 1 a second, a burst of 4) would see, so nothing tells it to look again; the nearer the first process
  comes to R, the less is left over. So every change that makes the first process's estimate better costs the
  joiner, and every earlier look costs a lone slow process the same 429. Four more variants traded rows the same way
  (the lab's rows, 32 seeds):
  - the first ramp's rise growing × 3 a pause, not × 2: Return All at (10, 2) 1.41 → 1.36 ×, the fixed window met in
    32 seeds, not 22; but 100 executions at (2, 1) 1.11 → 1.24 × (met in none, not 28), the sliding window 1.25 →
    1.35 ×;
  - the first ramp rising in proportion to the first guess (at least a request a second each pause): Return All at
    (10, 2) 1.36 ×, but Create 300 100 ms away 1.43 → 1.64 ×, and 7 of the 48 joiners stranded;
  - the first ramp's 429 left out of the budget when the ramp found less than the first guess (so a crowded joiner
    may look once more): Return All at (2, 2) 2.0 → 2.9 % 429, and the process alone at R = 1, B = 1 of
    \`pacer.test.mts\` meets 3 429s, not 2;
  - a stranded process looking after 16 answers at its pace (doubling after each look that finds nothing) instead of
    16 quiet pauses: 2 workers × 40 × 25 meets the goal in no seed, not 6; 3 workers × 200 3.5 → 4.4 % 429.

### Through n8n: the first stretch (pacer lab)

Traced through n8n (each send and answer of the pacer, printed from the built node in \`bench:rate-limit\`'s processes,
2026-11-27): an answer comes 2-9 ms after its request (3 ms at the median; the first, which opens the connection,
35-44 ms), and a send goes within 8 ms of the pace. Create's first request reads the template (once per process; the
others on the key share it for 60 s), and then nothing is in flight while n8n reads every item's parameters, the
executions' one after another: 317-364 ms for one execution of 1,000, 250 ms for 40 executions of 25, 116-159 ms for
each of two workers of 200. Meanwhile the bucket gets back the token that read took, so at B = 2 three pass before
the first 429 and the estimates run a token high. The simulation sent the first create at once;
\`PACER_LAB_PREPARE_MS=0.32 npm run bench:pacer-lab\` (the simulation's \`prepareMsPerItem\`) adds the read and the
pause, and the lab then takes what n8n took on most rows (mean × N/R over 32 seeds; through n8n, the full run of
2026-11-27 11:18; all before the burst bound, whose full run is above):

| case | lab | lab with the pause | through n8n |
|---|---|---|---|
| Create 1,000 at (10, 2) | 1.09 (0.6 % 429) | 1.16 (0.7 %) | 1.16 (0.7 %) |
| Create 1,000 at (10, 10) | 1.02 | 1.03 | 1.03 |
| 40 executions × 25 items at (10, 5) | 1.06 | 1.10 | 1.10 |
| Create 500 + the trigger polling every 10 s | 1.07 | 1.12 | 1.15 |
| Create 200, 429 without Retry-After | 1.14 | 1.20 | 1.22 |
| 40 executions × 25 items, 60 ms away | 1.20 | 1.21 | 1.24 |
| 3 workers × 200 items, started together | 1.20 | 1.26 | 1.25 |
| 2 workers: 300 items, and 100 joining at 10 s | 1.18 | 1.62 | 1.43 |
| Create 1,000 at (10, 1) | 1.27 | 1.66 | 1.31 |

- With the pause the lab answers 7 of 1,008 requests 429 at (10, 2) and 10 of 1,011 at (10, 10), as n8n did;
  \`pacer.test.mts\` pins the first. At B = 1 it takes 1.66 × with 1.1 % 429 against 1.31 × and 0.7 % through n8n:
  there the simulation's stalls (1 request in 20 held up to 40 ms more each way, the jitter measured under load)
  refuse requests at the cruise, and this quiet run had none; without the stalls the lab with the pause takes
  1.27-1.34 × with 7 429s there, as n8n did (3 seeds). A change to the pacer is best tried with and without the
  pause.
- **The burst bound, again.** Through n8n (one run of each, the same hour) it takes Create 1,000 at (10, 2) from 1.16
  to 1.13 × (the lab with the pause: 1.16 → 1.09), but 40 × 25 60 ms away stays at 1.23 × (and 1.21 × in a second
  run), where the lab without the pause had promised 1.11 ×; the lab with the pause says the same as n8n (1.21 →
  1.21 ×), and that at loopback the bound takes 40 × 25 from 1.10 to 1.24 ×. The bound reads the whole first
  stretch as refilling the bucket, but while nothing was in flight the bucket was full and the refill was lost:
  traced at 60 ms through n8n, it takes the burst to 2 (B is 5), the estimates run above R, and a 429 at that cruise
  cuts the pace to 8.4 a second. So the far-away gains of the items above were measured without the pause, and
  through n8n the bound is wrong wherever a process pauses before its first requests.
- **Landed (2026-11-27): the bound over the time requests were going**, with the least rate the service surely gave
  (see "Far from the service" above). Through n8n (the full run above, against the one before it): 40 × 25 60 ms away
  1.24 → 1.11 × (the lab with the pause: 1.21 → 1.13 ×), Create 300 100 ms away 1.41 → 1.41 × (the lab: 1.43 →
  1.43 ×: after its first ramp, a 429 at the cruise cuts it to 6.7 a second and it stays there; not what the bound
  is about), the loopback rows within the run-to-run spread (Create 1,000 at (10, 2) 1.16 ×, at (10, 1) 1.30 ×, 40 ×
  25 1.10 ×); of the workers, 2 × 200 1.48 → 1.38 ×, 3 × 200 1.25 → 1.20 ×, 3 with a joiner 1.43 → 1.17 ×, but the
  joiner pair 1.43 → 2.84 ×: its joiner was crowded from its start, which the lab with the pause finds in 25 of 100
  pairs with the bound and 24 without, and n8n had found in 4 of the 15 runs before this one. Without headers 13 of
  25 rows meet the goal (10 in the run before): the 60 ms row, the trigger's (1.15 → 1.10 ×) and 429 without
  \`Retry-After\` (1.22 → 1.13 ×), the last two by the spread between runs (the lab with the pause finds them unchanged,
  at 1.12 and 1.20 ×). With headers, 2 workers × 40 × 25 took 1.12 → 1.16 × (RateLimit) and 1.14 → 1.17 ×
  (X-RateLimit), and Create 1,000 at (10, 1) with X-RateLimit 1.14 → 1.20 ×, which the lab also finds unchanged.
- *Tried, not kept*: not counting as burst what refilled while nothing was in flight (at the first guess's rate, at
  most what had passed before). Without the pause nothing changes; with it (16 seeds) Create at (10, 2) 1.16 →
  1.11 × and at (10, 1) 1.66 → 1.41 ×, but at (2, 2) 1.02 → 1.13 × with 2.5 % answered 429. The pause refills a whole
  token at R = 10 and 0.64 of one at R = 2, which no request used there: the burst comes out 1.4 and the bucket is
  taken for a bucket of one. The first stretch does not tell R, so it cannot tell which.

### A wait over a second: the estimate is the pace (2026-11-27, evening)

A later 429 that asks for a wait over a second (a slow bucket's next token, a window's end) no longer cuts the pace to
0.7 of the pace it refused when the estimate is below that: the estimate is the pace (the pause refilled about a
token, none lost to a full bucket; a window refilled whole). In the pacer lab (32 seeds) only the bucket of 30 a minute
changes: 9.4 → 3.6 % answered 429 on loopback with Create's pause (4.8 % at 20-40 ms), 1.04 → 0.99 × N/R; every other
row, with and without the pause, at 20-40 ms and with headers, is identical. Through n8n (the run above, against the
one before): 11 of 112 → 3 of 104 requests answered 429, in 0.97 × N/R. The other rows take the same decisions, so what
moved there is the spread between runs: without headers 11 of 25 rows meet the goal (13 before: 2 workers × 40 × 25
took 1.09 → 1.17 × and 429 without \`Retry-After\` 1.13 → 1.19 ×, 1.13 and 1.20 × in the lab), the joiner pair 2.84 →
1.25 × (its joiner not crowded this time), 3 workers × 200 1.20 → 1.13 ×; with RateLimit headers 12 of 12 (11), with
X-RateLimit 8 of 12 (8). *Tried, not kept*: counting every 429 in the 1/64 budget, not only the probes' (the row then
meets 2 %, at 2.0 %, but 2 workers × 200 1.21 → 1.24 × and 3 with a joiner 1.24 → 1.33 ×); and again the refill while
nothing was in flight (above), bounded by what had passed before: Create at (10, 2) 20-40 ms away 1.19 → 1.16 ×, two
of the far workers' rows 0.02-0.03 × slower.

### A key used before (2026-11-27, night)

A key's gate lives while the key is used (15 minutes idle at most), so a key the trigger polls once
a minute is never new to its n8n process. Until this change the pacer counted what passed before the
first 429 from the key's first request in the process, and its ramp rose with wall time while
nothing was sent: after half an hour of polls the first guess was about 40 requests over half an
hour, 0.02 a second, and where the polls had met the limit the run began at 2^n requests a second.
Now the first stretch starts again once the key was quiet for over a second (a bucket of a request a
second or more is full again), and a probe rises only while requests go. In simulated time
(\`pacer.test.mts\`: 30 polls a minute apart, then Create with its pause): Create 1,000 at (10, 2)
17.9 → 1.16 × N/R, Create 200 behind the fixed window 21.5 → 1.14 ×, Create 100 at 30 a minute 15.5
→ 1.02 × (on a new key 1.16, 1.15 and 0.99 ×). On a new key every row of the pacer lab is
byte-identical, with and without Create's pause, at 20-40 ms and with headers, and so are the 19
shapes it was not tuned on: the runs above take the same decisions. Through n8n, \`npm run
bench:used-key\` (one run each; "before": the build of the commit before):

| case | new key | used key (6 polls, 10 s apart), before | used key, now |
|---|---|---|---|
| Create 300 at (10, 2) | 1.29-1.31 | 1.33 | 1.09 |
| Create 300 at (10, 10) | 1.04-1.06 | 1.19 | 1.04 |
| Create 200, fixed window of 50 per 5 s | 0.89-0.94 | 1.59 | 0.90 (5 of 206 answered 429) |
| Create 300 at (10, 10), 10 polls 30 s apart | 1.05 | 1.44 (7 of 308 answered 429) | 1.04 |

At (10, 2) the polls themselves met the limit (5 requests a poll, a burst of 2), so the run starts
with a pace learnt and beats a new key. On a used key the 1/64 budget of 429s counts the polls'
requests too, so a run may look above its pace once more: the window's 5 of 206 (2.4 %, 3 on a new
key); in simulation the slow bucket's 5.3 % (3.5 %).

Two rows on a new key through n8n after the change (one run each, \`BENCH_RATE_CASES\`): Create 1,000
at (10, 2) 1.17 × N/R with 7 of 1,008 answered 429 (the full run above: 1.16 ×, 7), the same
decisions; 2 workers × 200 started together 1.57 × with 8 of 410 (1.33 × above), the spread of that
row. By its pace trace, one worker's cruise settled at 3.1-3.3 a second while the other took 7.1,
just above 0.7 of its best cruise (4.45), so it never counted as stranded; its two looks above that
pace, made while the other ran, found nothing and spent its budget, and it kept 3.3 a second for the
30 s after the other left.

### The template read right before the creates (tried 2026-11-28, not kept)

Create reads the template, and then n8n reads every item's parameters with nothing in flight
("Through n8n: the first stretch" above), so the bucket gets back the lookup's token unseen. Tried:
Create reading every item's fields first (a mistake in any item then stops the run before any
request), then the lookup, then the creates; through n8n the first create then went 13-17 ms after
the lookup's answer for 1,000 items, against 317-364 ms. No change to the pacer. In the pacer lab as
through n8n (32 seeds, mean × N/R) Create at (10, 2) took 1.16 → 1.09 ×, at (10, 1) 1.66 → 1.27 ×,
beside the trigger 1.12 → 1.08 ×, 429 without \`Retry-After\` 1.20 → 1.15 ×, the joiner pair 1.62 →
1.30 ×, no row slower by more than 0.01 × (at 20-40 ms too; the joiner pair of \`pacer.test.mts\` at
5-40 ms, 200 seeds: 1.28 → 1.38 ×). Through n8n, a full \`bench:rate-limit\` run on that build:
without headers 12 of 25 rows met the goal (11 in the table above), Create at (10, 2) 1.10 ×, at
(10, 1) 1.14 ×, 429 without \`Retry-After\` 1.16 ×, 2 workers × 200 1.15 ×, 3 workers × 200 1.08 ×,
the joiner pair 1.22 ×; with X-RateLimit 9 of 12. But Create 500 beside the trigger took 1.25 ×
(73.8 s; 1.27 × with X-RateLimit), and again 74.6 and 75.0 s in two more runs, against 61.0 and 63.6
s for the build before in runs alternated with them: that row met the goal and now missed it, so the
change was not kept.

The cause, traced through n8n (each send and answer of the key's pacer): the trigger's first request
goes at 0 and is answered at 370 ms, because n8n is busy reading Create's items meanwhile and reads
the answer only then. Five pass before the first 429 (B = 5, read right), but the burst bound of
2026-11-27 counts what the least rate the service surely gave (about 6.4 a second) refilled over the
0.4 s a request was in flight: 2.6 tokens. A bucket that lost one token in that time refilled it in
0.1 s and was then full: the rest was lost. The burst comes out 3.4, then 2.5, the estimates 11-12 a
second against 10, and each 429 at that cruise cuts the pace to 0.7 of it: 7.9-8.4 a second for the
rest of the run. The lab does not show it: its requests are answered whatever the node does. The
bound the trace asks for is the one of a bucket of the least rate that started full: what that
bucket had not got back of the first stretch's requests when the first 429 came (each request a
token, refilled at that rate only while the bucket was below full), plus one. It needs the first
stretch's send times, not its time in flight, and would also read the lookup's token as refilled in
the old order; it is the next step on issue 27, with this order of Create (taken: below).

### The bound by send times, with the template read right before the creates (2026-11-28)

The bound of 2026-11-27 ("The bound" above) is replaced by the one the trace above asked for: a bucket of the least
rate the service surely gave, full when the first stretch began and never above full, each accepted request taking a
token at the time it was sent; the burst is under what that bucket lacked when the first 429 was sent, plus one
(\`lacking()\` in \`pacer.ts\`). It needs neither the time requests were in flight nor the time none was: an answer
n8n reads late hides no refill, and a full bucket gains nothing. With it, the order of Create tried above lands. Pacer
lab (32 seeds, mean × N/R, no headers, as through n8n), the bound alone and then with the new order: Create at (10, 2)
1.16 → 1.15 → 1.09 ×, at (10, 1) 1.66 → 1.66 → 1.27 ×, beside the trigger 1.12 → 1.09 → 1.08 ×, 429 without
\`Retry-After\` 1.20 → 1.19 → 1.15 ×, 100 executions × 2 1.14 → 1.14 → 1.11 ×, the joiner pair 1.62 → 1.44 → 1.30 ×.
At 20-40 ms, both: 40 × 25 60 ms away 1.20 → 1.12 ×, 2 workers × 200 1.21 → 1.15 ×, 3 workers with a joiner 1.29 →
1.22 ×, and 0.01-0.02 × slower the sliding window (1.43 → 1.44 ×), the limit lowered (1.13 → 1.14 ×), the joiner pair
(1.27 → 1.28 ×) and Create 300 100 ms away (1.39 → 1.41 ×). Without Create's pause and with headers every row is as
before. The joiner pair of \`pacer.test.mts\` (200 seeds, mean): 1.55 → 1.33 × at loopback, 1.28 → 1.36 × at 5-40 ms,
the crowded joiner's lottery (runs over 1.75 ×: 44 → 16, and 4 → 24). Through n8n, first the rows the try had made
slower and the ones it was for (one run each, the same hour): Create beside the trigger 1.07 × (64.7 s; 1.08 × in the
table before, 1.25 × with the try alone), Create at (10, 2) 1.10 ×, 429 without \`Retry-After\` 1.15 ×, 40 × 25 60 ms
away 1.09 ×, the joiner pairs 1.19 × and 1.21 ×. Then a full run (04:20-05:40; the table above is now the run of the
next subsection): without headers 14 of 25 rows meet the goal (11 before): Create at (10, 2) 1.09 ×, at (10, 1) 1.13 ×
and 429 without \`Retry-After\` 1.13 × now meet it; 2 workers × 200 1.19 × (1.33 × before), the joiner pair 1.19 ×
(1.25 ×), 40 × 25 60 ms away 1.10 × (1.12 ×); slower 3 workers × 200, 1.35 × (1.13 ×), and 3 workers with a joiner,
1.63 × (1.25 ×). Those two are the rows whose spread is widest: run twice more on each build, alternated, 1.29 and
1.25 × and 1.41 and 1.31 × on this one, 1.12 and 1.41 × and 1.68 and 1.30 × on the one before. With X-RateLimit 9 of
12 rows (8 before; Create beside the trigger 1.16 → 1.07 ×), with RateLimit 12 of 12. Create at (10, 1) took 1.13 ×,
under the 1.16 × of "Bucket of one" above: that bound is for the lab's arrival jitter (2-44 ms), and this run's
loopback spread was narrower (the reference client 1.11 ×). In the lab, the row of 300 items and a joiner of 100, as
through n8n (100 seeds): the joiner was left at a crowded pace in 8 runs, 25 before.

### A refused look goes back to the pace it left (2026-11-28, later)

After a probe's 429 the pace was the estimate, even when that was below the pace the probe had started from. Where the
estimate runs low, each probe then took the pace under one the service had just been taking for seconds: a sliding
window read as a bucket (a burst of 18-20 that started empty at the first 429, so the slowest bucket that explains the
stretch runs at 7.5 a second behind a window of 10 a second), or a service far away whose first stretch leaves the
burst loose (next subsection). Now a refused probe goes back to the pace it left when the service took 16 requests
(\`K_PROBE\`) at that pace or above since the pause, and to the estimate otherwise, as before: BBR does not lower its
rate for a probe's loss either. The condition is for a first guess a burst carried: at R = 1, B = 5 the first 429
comes after 5 passed within milliseconds, the guess is 5 a second, and after the pause the bucket lets 1 through and
refuses the ramp; going back to the guess there draws a 429 at every cruise (6.5 % of requests answered 429 in the lab
without the condition, 2.0 % with it, as before). A pace the limit no longer allows (it fell during the probe) meets a
429 at the cruise, which cuts it to 0.7 as before: one 429 more. Two pacer tests, each failing without its half of the
rule. Pacer lab (mean × N/R; 32 seeds at loopback, with and without Create's pause; 16 seeds far away, with it): the
sliding window 1.25 → 1.22 ×, Create 300 100 ms away 1.43 → 1.31 ×, the joiner pair with the pause 1.30 → 1.20 × (over
100 seeds as through n8n 1.32 × on both builds, 8 runs of 100 over 1.75 ×), every other row within 0.02 ×; at 20-40 ms
the sliding window 1.44 → 1.25 ×, the fixed window 1.10 → 1.06 ×, the joiner pair 1.32 → 1.34 ×; at 40-60 ms Create
1,000 at (10, 2) 1.44 → 1.22 ×, 40 × 25 1.20 → 1.13 ×, beside the trigger 1.20 → 1.13 ×, 429 without \`Retry-After\`
1.18 → 1.14 ×, the sliding window 1.41 → 1.34 ×, 3 workers with a joiner 1.44 → 1.36 ×, but the limit lowered 1.7 →
2.4 % answered 429 (1.08 → 1.10 ×), 3 workers × 200 1.24 → 1.34 × and the joiner pair 1.25 → 1.33 ×. With headers
every row as before. Of 21 shapes the lab does not hold (R from 1 to 20, B from 1 to 40, windows of 2-10 s, pairs, a
joiner, limits lowered and raised; 16 seeds at loopback) none moves by more than 0.02 × or 0.4 % answered 429 but two
windows: 10 per 10 s 1.18 → 1.10 × (2.2 → 2.7 % 429) and 50 per 5 s 1.18 → 1.15 ×. Through n8n, first the two rows it
was for (one run each): the sliding window 1.23 → 1.21 ×, Create 300 100 ms away 1.40 → 1.26 ×. Then a full run
(07:16-08:40; the table above is now the quiet run below). The machine was busier than in the run before (the lab ran
beside it for a few minutes: load average 0.26 at the end against 0.03), and the rows at B = 1 show it in the
reference client, which learns nothing: Create 1,000 at (10, 1) 1.11 → 1.19 × without headers, 1.10 → 1.48 × with
RateLimit (7.1 % answered 429). Without headers 12 of 25 rows meet the goal (14 before): Create 300 100 ms away 1.40 →
1.26 ×, 3 workers × 200 1.35 → 1.22 ×; the sliding window 1.23 → 1.24 ×; missed this time Create 1,000 at (10, 1),
1.13 → 1.15 × (the reference client 1.19 ×), and 100 executions × 2 at (2, 1), 1.07 → 1.23 × (its first ramp's
estimate came out at 0.91 a second and it cruised there for 20 s; 4 of 32 seeds do so in the lab, on both builds); the
workers' rows with the widest spread 2 × 200 1.19 → 1.29 ×, the joiner pair 1.19 → 1.54 ×, 3 with a joiner 1.63 → 1.70
×. With RateLimit 11 of 12 (2 workers × 40 × 25 1.8 → 2.1 % answered 429), with X-RateLimit 9 of 12. Those rows were
run again on a quiet machine, each build in turn (new, then the one before, twice): 100 executions × 2 1.09 and 1.09 ×
on this build, 1.23 and 1.06 × on the one before (the same lottery); the sliding window 1.17 and 1.18 ×, against 1.24
and 1.25 ×; 2 workers × 200 1.23 and 1.11 × (2.7 and 2.2 % answered 429), against 1.10 and 1.13 × (2.9 and 2.7 %); the
joiner pair 1.18 and 1.12 × (2.0 and 2.7 %), against 1.30 and 1.15 × (1.7 and 2.4 %). So the sliding window gains what
the lab said and stays within 5 % of its bound on a quiet machine (1.17-1.21 × in three runs, 1.24 × in the busy full
run; "Learnable bounds" above), Create 300 100 ms away gains 0.14 × in both runs, and the other rows move within their
spread.

### Far from the service: the burst apart from the rate (2026-11-28)

Told the limiter's burst (a two-line lab patch that sets the pacer's burst to B, not kept), the pacer takes Create 300
100 ms away from 1.31 to 1.13 × (31 of 32 seeds meet the goal), and at 40-60 ms Create 1,000 at (10, 2) from 1.22 to
1.16 ×, 40 × 25 from 1.13 to 1.08 ×, 40 × 25 60 ms away from 1.18 to 1.12 ×, at (10, 1) from 1.74 to 1.48 ×. On those
rows the time goes to the burst bound, not to learning the rate. The pacer cannot learn the burst from what it sees.
The first stretch (the bucket full at its start, empty at the first 429) gives one relation between the two, the burst
B(R) that a bucket of rate R lacked then. Every later stretch starts empty at a 429, and a bucket of the least rate
with the burst B(least) explains it as well as the true one: traced 100 ms away, 67 passed in 7.5 s before the first
429 with one request in flight (about 9 a second), so B(6.55) = 18.4, B(8) = 7.5 and B(10) = 2.8, and each later
stretch fits both; the estimate, the slowest bucket that fits, stays at 6.5 a second. The probe, whose rise doubles
every pause, crosses the whole range in about a second and is refused near the same moment under either. Far away the
first stretch is long (one request in flight already goes at about R), so B(R) falls steeply with R. What would tell
them apart is a stretch of another shape: a burst right after a pause (it costs its excess over the bucket in 429s at
once), or a pace held above the estimate until a bucket of burst B(least) would have run dry (B(least) / (pace −
least), 10 s at 8 a second there; it costs a 429 whenever R is below that pace). Neither fits the 1/64 budget on a row
of 300 nor the 180 lines. Tried, not kept:
- one more request in flight per second of the first stretch, beside one per 64 answers, so the first 429 comes
  sooner far away: at 40-60 ms Create 1,000 at (10, 2) 1.44 → 1.25 ×, 40 × 25 1.20 → 1.11 ×, beside the trigger 1.20
  → 1.13 ×, at loopback Create 300 100 ms away 1.43 → 1.38 ×; but 40-60 ms away Return All at (10, 2) 1.27 → 1.57 ×
  (its first 10 passed in 0.94 s, and B(least) is still 5.5 at B = 2), Return All at (10, 10) 1.1 → 3.2 % answered
  429, the fixed window 1.7 → 2.5 %;
- after a probe's 429, 0.7 of the pace refused as a floor (TCP's cut): Create 300 100 ms away 1.43 → 1.27 ×, but
  Create 1,000 at (2, 2) 1.0 → 4.5 % answered 429, the slow bucket 3.6 → 10.4 %, 40 × 25 1.06 → 1.19 ×: a ramp is
  refused well above the rate, and 0.7 of that is above it too.

### A full run on a quiet machine (2026-11-28, 11:40-13:00)

The same pacer as the run before (no change to \`transport/\` since), with nothing else running on the machine: the
table above. The reference client shows the machine was quiet again: Create 1,000 at (10, 1) 1.19 → 1.10 × without
headers. Without headers 15 of 25 rows meet the goal (12 in the busy run, 14 in the run before it): Create 1,000 at
(10, 1) 1.13 ×, 100 executions × 2 at (2, 1) 1.11 × (4 of 205 answered 429), 2 workers × 40 × 25 1.14 × (20 of 1,022),
the fixed window 0.78 × (4 of 205), the limit lowered 1.12 × (6 of 307). Still missed: Return All at (10, 2) 1.39 ×
and (10, 1) 1.52 × (bounds 1.22 and 1.44 ×); the sliding window 1.20 × (within 5 % of its bound of 1.16 ×); the slow
bucket 2.9 % answered 429 (3 of 104); Create 300 100 ms away 1.23 ×; the workers' rows: 2 × 200 1.15 × with 2.7 %
answered 429, 3 × 200 1.53 × (3.8 %), the joiner pair 1.24 × (2.7 %), 3 with a joiner 1.24 × (3.5 %), 2 × 20 × 10 1.13
× (2.4 %). With RateLimit 11 of 12 (2 workers × 40 × 25 2.1 % answered 429 again), with X-RateLimit 9 of 12 (Return
All at (10, 2) 1.27 × and (10, 1) 1.45 ×, within 5 % of the bounds of 1.22 × and 1.44 ×, which hold there too; 2
workers × 40 × 25 2.1 %).

Tried in the pacer lab after it, not kept (16 seeds, mean × N/R, loopback unless said): the first ramp's step at 2 a
second per pause instead of 1 takes Return All at (10, 2) 1.41 → 1.36 × and at (10, 1) 1.66 → 1.59 ×, but 100
executions × 2 at (2, 1) 1.10 → 1.22 × (15 → 0 of 16 seeds meet the goal) and Return All at (2, 2) 1.07 → 1.12 ×: the
step is in requests a second and R is unknown, so one that reaches 10 a second sooner overshoots 2 a second. A first
ramp that doubles the pace each pause: Return All at (10, 2) 1.41 → 1.36 ×, but Create 300 100 ms away 1.31 → 1.64 ×
(its second 429 comes after fewer than 16 requests, so the pace goes to the estimate, low far away). A probe's first
rise of 1/8, 1/16 or 1/32 of the pace instead of 1/64: the workers' rows move by 0.02-0.08 × either way, the sliding
window 1.22 → 1.24-1.27 ×. A cruise 1.5 % below the estimate (the bucket refills while it cruises): 2 workers × 200
1.25 → 1.17 ×, but 20-30 ms away Create 1,000 at (10, 2) meets the goal in 7 of 16 seeds (14 before) and 3 workers
with a joiner 1.22 → 1.35 ×.

Tried on 2026-11-28 (afternoon), not kept. A probe's first rise 1/64 of the highest cruise the process had, not of the
one it left (so a process left alone far below its best finds the key sooner): the workers' rows move by up to 0.10 ×
either way (3 × 200 at loopback 1.18 → 1.22 ×, with Create's pause 1.28 → 1.18 ×), the seeds meeting the goal by up to
3 of 16 either way. The first 429 counted in the 1/64 budget (the ramp's already is): the slow bucket 3.4 → 2.0 %
answered 429 (16 of 16 seeds meet the goal), 100 executions × 2 at (2, 1) 1.8 → 1.5 %, but 2 workers × 200 and 2 × 20
× 10 1.25 → 1.30 ×, 3 workers with a joiner with Create's pause 1.19 → 1.32 ×: each process then has one look fewer to
find what the others leave.

### The pace over time

Requests let through and answered 429 each second (the sandbox's request log), the limit, and each process's pace (its
gate, sampled once a second).

${rateLimitPictures()}`;
}

function read(name: string): Results | undefined {
	const path = join(RESULTS_DIR, `${name}.json`);
	return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Results) : undefined;
}

function markdownTable(rows: Row[]): string {
	if (rows.length === 0) return '';
	const columns = Object.keys(rows[0]);
	const cell = (value: Row[string]) =>
		value === undefined || value === null ? '' : String(value).replace(/\|/g, '\\|');
	return [
		`| ${columns.join(' | ')} |`,
		`|${columns.map(() => '---').join('|')}|`,
		...rows.map((row) => `| ${columns.map((column) => cell(row[column])).join(' | ')} |`),
	].join('\n');
}

function met(figure: Figure): string {
	if (figure.met === undefined) return '';
	return figure.met ? '**met**' : '**missed**';
}

function rowOf(results: Results | undefined, scenario: string, contender: string): Row | undefined {
	return results?.table.rows.find(
		(row) => String(row.scenario).startsWith(scenario) && row.contender === contender,
	);
}

/** The profile's "ms per run" of the watched call whose label starts with `label`, if the profile ran. */
function profiled(label: string): number | undefined {
	const path = join(RESULTS_DIR, 'profile.json');
	if (!existsSync(path)) return undefined;
	const profile = JSON.parse(readFileSync(path, 'utf8')) as ProfileSummary;
	const value = Number(
		profile.calls.find((row) => String(row.call).startsWith(label))?.['ms per run'],
	);
	return Number.isFinite(value) ? value : undefined;
}

/** The diagnosis of the Return All figures, with the figures of the same run. */
function returnAllDiagnosis(results: Results): string {
	const ms = (scenario: string, name: string) =>
		Number(rowOf(results, scenario, name)?.['median ms']);
	const named = (scenario: string, prefix: string) =>
		results.table.rows
			.filter(
				(row) =>
					String(row.scenario).startsWith(scenario) && String(row.contender).startsWith(prefix),
			)
			.map((row) => String(row.contender));
	const fastest = (scenario: string) => {
		const names = named(scenario, 'minimal client, ');
		const best = names.reduce(
			(a, b) => (ms(scenario, a) <= ms(scenario, b) ? a : b),
			names[0] ?? '',
		);
		return { name: best.replace('minimal client, ', ''), ms: ms(scenario, best) };
	};
	const inFlight = Number((results.details as { pageConcurrency?: number }).pageConcurrency);
	const node = ms('loopback', 'node (Return All)');
	const previous = ms('loopback', 'what-if: node, previous credential (regex notices)');
	const withAuth = ms('loopback', 'floor: bare node, httpRequestWithAuthentication');
	const ownHeader = ms('loopback', 'floor: bare node, httpRequest + own header');
	const minimal = fastest('loopback');
	const http = ms('loopback', 'HTTP Request node, pagination');
	const latency = String(
		results.table.rows.find((row) => String(row.scenario).startsWith('+'))?.scenario ??
			'+20 ms per request',
	);
	const delay = latency.replace(/^\+/, '').replace(' per request', '');
	const lNode = ms('+', 'node (Return All)');
	const lMinimal = fastest('+');
	const lSame = ms('+', `minimal client, ${inFlight} parallel`);
	const lHttp = ms('+', 'HTTP Request node, pagination');
	const lAll = ms('+', named('+', 'what-if: node, all pages at once')[0] ?? '');
	if (
		![node, previous, withAuth, ownHeader, minimal.ms, lNode, lMinimal.ms, lAll, inFlight].every(
			Number.isFinite,
		)
	)
		return '';
	const x = (a: number, b: number) => `${round(a / b, 2)}×`;
	const targets = results.figures.filter((figure) => figure.met !== undefined);
	const missed = targets.filter((figure) => figure.met === false);
	const short = (figure: Figure) =>
		`${figure.name.replace(/^Return All [\d,]+ assets(, )?/, '').replace(/^: /, 'loopback: ')} = ${figure.value}${figure.unit} (target ${figure.target})`;
	const verdict = missed.length
		? `**Still missed**: ${missed.map(short).join('; ')}. Met: ${
				targets
					.filter((figure) => figure.met)
					.map(short)
					.join('; ') || 'none'
			}.`
		: `All ${targets.length} targets are met.`;
	const hasHttp = Number.isFinite(http) && Number.isFinite(lHttp);
	const floorAboveTarget = withAuth / minimal.ms > 1.25;
	const [decrypt, expression, axios, connect] = [
		'↳ getCredentials',
		'↳ authenticate',
		'↳ httpRequest',
		'↳ new TCP connections',
	].map(profiled);
	const profileSplit =
		decrypt !== undefined &&
		expression !== undefined &&
		axios !== undefined &&
		connect !== undefined
			? `
  In the profile below (its own run, slowed by the sampler), per run: credential resolution ${decrypt} ms, the auth
  expression ${expression} ms, axios sending ${axios} ms, new TCP connections ${connect} ms.`
			: '';
	const allMeets = lAll / lMinimal.ms <= 1.25;
	return `### ${missed.length ? 'Why Return All still misses targets after the fixes' : 'Return All: where the time goes'}

Both fixes the last diagnosis suggested are in the shipped code (commit 23e8362): the credential's two notices use
\`startsWith\`/\`endsWith\` conditions instead of \`_cnd: { regex }\` (n8n-workflow runs each regex condition in a \`vm\`
context with a timeout, every time it resolves the credential, i.e. on every request), and the node keeps
${inFlight} pages in flight (\`PAGE_CONCURRENCY\` in transport/pagination.ts, was 4).

${verdict}

Loopback, medians of the same run (ms): node ${node}; bare node through \`httpRequestWithAuthentication\` ${withAuth};
bare node through \`httpRequest\` with its own header ${ownHeader}; fastest minimal client (${minimal.name}) ${minimal.ms}${hasHttp ? `; HTTP Request node ${http}` : ''}.

- **What the credential change saved**: the node with the previous credential (regex notices patched back in memory)
  takes ${previous} ms, ${x(previous, node)} the shipped node; against the minimal client that was ${x(previous, minimal.ms)}, now ${x(node, minimal.ms)}.
- **The node's own code is not where the time goes**: it takes ${x(node, withAuth)} the time of the bare node that only sends the
  same 100 requests through n8n's authenticated helper (the profile puts its paging, merging and item output at a
  few percent). ${
		floorAboveTarget
			? `That floor is already ${x(withAuth, minimal.ms)} the minimal client, so on loopback no node that uses the helper reaches the
  1.25× target on this machine.`
			: `That floor is ${x(withAuth, minimal.ms)} the minimal client, within the 1.25× target, so the node's own work matters here.`
	}
- **What is left is n8n's per-request work inside \`httpRequestWithAuthentication\`**, on the client's one thread (the
  server is on the other core): it resolves the credential on every request (\`getCredentials\` → \`getDecrypted\` →
  \`NodeHelpers.getNodeParameters\`, the display conditions of every credential property; in a real n8n also a
  database read and decryption, so there it costs more, not less), evaluates the \`=Bearer {{$credentials.apiKey}}\`
  expression of the generic \`authenticate\`, and sends through axios with new agents per request, so every page opens
  a new TCP connection (the minimal client keeps its connections alive). The bare node with plain \`httpRequest\` and
  its own header (no credential resolution, no expression) takes ${ownHeader} ms, still ${x(ownHeader, minimal.ms)} the minimal client: n8n's
  axios path with a new connection per request, and the engine run.${profileSplit}
  A verified community node must use the helper with a generic \`authenticate\` (setting the auth header by hand is a
  lint error), so none of this is the node's to remove.${
		hasHttp
			? `
- **The HTTP Request node pays the same per-request costs** (it resolves the same credential on every page, so the
  credential change made it faster too, plus its pagination expressions) but one page at a time. On loopback a page
  costs the server about a millisecond and the client's thread is the bottleneck, so the node's parallel pages buy
  little: ${x(http, node)} the node, not 3×. 3× would need the node at ${round(http / 3, 1)} ms, ${x(http / 3, minimal.ms)} the minimal client's own time.`
			: ''
	}
- **With latency, as against a real service** (every answer ${delay} later, sandbox \`slow\` fault): node ${lNode} ms; minimal
  client ${inFlight} at a time ${lSame} ms (node ${x(lNode, lSame)} that), fastest minimal client (${lMinimal.name}) ${lMinimal.ms} ms (${x(lNode, lMinimal.ms)})${
		hasHttp
			? `;
  HTTP Request node ${lHttp} ms (${x(lHttp, lNode)} the node)`
			: ''
	}. With ${inFlight} pages in flight the 99 pages after the first take
  about ${Math.ceil(99 / inFlight)} round trips, against one for a client that sends them all at once. The what-if with all of them at once
  takes ${lAll} ms (${x(lAll, lNode)} the shipped node, ${x(lAll, lMinimal.ms)} the fastest minimal client)${
		allMeets
			? `, within the 1.25× target: with latency what
  is left of the gap is the pages in flight.`
			: `, still above the 1.25× target: with latency the
  pages in flight explain part of the gap, n8n's per-request work the rest.`
	} Sending 100 requests at once to a real service invites 429s (every list
  call counts against its rate limit), so this is a measurement, not a suggestion: meeting this target means choosing
  that.`;
}

interface ProfileSummary {
	date: string;
	command: string;
	runs: number;
	msPerRun: number;
	packages: Row[];
	calls: Row[];
}

function profileSection(): string {
	const path = join(RESULTS_DIR, 'profile.json');
	const intro = `## Profiling: where the node's Return All time goes

\`npm run bench:profile\` runs the node's Return All of 10,000 assets 20 times in the engine under V8's sampling
profiler (after a warm-up) and writes \`bench/results/return-all.cpuprofile\` (opens in Chrome DevTools).`;
	if (!existsSync(path)) return `${intro}\n\nNot run yet.`;
	const profile = JSON.parse(readFileSync(path, 'utf8')) as ProfileSummary;
	return `${intro} Last run ${profile.date}: ${profile.msPerRun} ms per run (sampled; profiling slows it a little).

Inclusive time of the calls that matter (a call's time includes what it calls; "share" is of all samples):

${markdownTable(profile.calls)}

Self time by package:

${markdownTable(profile.packages)}`;
}

/** What the create benchmark shows, with the figures of the same run. */
function createNotes(results: Results): string {
	const row = (scenario: string, contender: string) =>
		results.table.rows.find(
			(entry) => entry.scenario === scenario && entry.contender === contender,
		);
	const slow = '10% 429, Retry-After 1';
	const node = row(slow, 'node');
	const loop = row(slow, 'HTTP Request + error loop with Wait');
	const retry = row('10% 429, Retry-After 0', 'HTTP Request + Retry On Fail (3 tries, 1 s)');
	const plain = row('10% 429, Retry-After 0', 'HTTP Request node');
	const calmNode = row('no faults', 'node');
	const calmHttp = row('no faults', 'HTTP Request node');
	if (!node || !loop || !retry || !plain || !calmNode || !calmHttp) return '';
	return `### What this shows

- Without faults the node took ${calmNode['median s']} s and the HTTP Request node ${calmHttp['median s']} s (it sends all 1,000 requests at once;
  the node 4 items at a time).
- With 429s the node creates every video exactly once (${node['videos created']} created, ${node['POST requests']} POSTs for ${node['429s']} 429s) with no
  workflow around it. The HTTP Request node as is fails the run at the first 429 (${plain['videos created']} videos created, none
  output). With Retry On Fail it sends every item again on each try: ${retry['POST requests']} POSTs, **${retry['videos created']} videos created
  for 1,000 items** (duplicates, credits spent twice) and the run still fails. Only the hand-built error loop gets it
  right.
- **Why the node is slow with Retry-After 1 (no target, but worth fixing): ${node['median s']} s against ${loop['median s']} s for the
  error loop.** The node honours the Retry-After the server asks for: an item that gets a 429 waits that long inside
  its worker (transport/request.ts \`sendWithRetries\`) and then sends again, while the other 3 of the 4 item workers
  (\`ITEM_CONCURRENCY\` in actions/router.ts) go on with their items. So ${node['429s']} 429s × 1 s / 4 workers
  ≈ ${round(Number(node['429s']) / 4, 0)} s of the run is a worker waiting; it still creates each video exactly once (${node['videos created']} created).
  Suggested fix (nodes/, not bench/): let a rate-limited item give its worker back (put it in a retry queue with a
  not-before time and take the next item), or share one pause across workers for the Retry-After the server asked,
  instead of sleeping per item; the error loop above, which defers failed items the same way, shows the order of
  what that would give.`;
}

/** A block another benchmark writes into BENCHMARKS.md itself, between markers. */
const MARKED_BLOCK = /<!-- section:([\w-]+) -->[\s\S]*?<!-- \/section:\1 -->/g;

/** The BENCHMARKS.md about to be rewritten: its sections by heading, and its summary table's rows. */
interface Previous {
	sections: Map<string, string>;
	/** Lines of the "All figures" table, by their first cell (the benchmark's short title). */
	summaryLines: Map<string, string[]>;
	/** The line saying how long the last full `npm run bench` took. */
	totalsLine?: string;
}

function previousDocument(): Previous {
	const path = join(process.cwd(), 'BENCHMARKS.md');
	const previous: Previous = { sections: new Map(), summaryLines: new Map() };
	if (!existsSync(path)) return previous;
	// Blocks kept whole by keptSections() are not sections of this script's.
	const text = readFileSync(path, 'utf8').replace(MARKED_BLOCK, '');
	for (const part of text.split(/^(?=## )/m)) {
		if (part.startsWith('## '))
			previous.sections.set(part.slice(3, part.indexOf('\n')).trim(), part.trim());
	}
	for (const line of (previous.sections.get('All figures') ?? '').split('\n').slice(3)) {
		const first = /^\| (.*?) \|/.exec(line)?.[1];
		if (first !== undefined)
			previous.summaryLines.set(first, [...(previous.summaryLines.get(first) ?? []), line]);
	}
	previous.totalsLine = /^`npm run bench` took .*$/m.exec(text)?.[0];
	return previous;
}

/** Sections that other benchmarks write into BENCHMARKS.md themselves (between
 * `<!-- section:NAME -->` and `<!-- /section:NAME -->`, e.g. `npm run bench:queue`), kept as they are. */
function keptSections(): string {
	const path = join(process.cwd(), 'BENCHMARKS.md');
	if (!existsSync(path)) return '';
	const blocks = readFileSync(path, 'utf8').match(MARKED_BLOCK) ?? [];
	return blocks.map((block) => `\n${block}\n`).join('');
}

function main(): void {
	const previous = previousDocument();
	const all = ORDER.map(([name, title]) => {
		const results = read(name);
		// Kept from the previous document when this run has no results for it (and it had some).
		const kept = results ? undefined : previous.sections.get(title);
		return { name, title, results, kept: kept && !kept.includes('Not run yet') ? kept : undefined };
	});
	const ran = all.filter((entry) => entry.results);
	const machine = ran[0]?.results?.machine;
	const totals = existsSync(join(RESULTS_DIR, 'all.json'))
		? (JSON.parse(readFileSync(join(RESULTS_DIR, 'all.json'), 'utf8')) as {
				date: string;
				seconds: number;
				benchmarks: Record<string, number>;
			})
		: undefined;
	const runDate = (entry: (typeof all)[number]) => {
		const date = entry.results?.date ?? /· run (\S+)/.exec(entry.kept ?? '')?.[1];
		return date ? `${entry.name} ${date.slice(0, 16).replace('T', ' ')} UTC` : undefined;
	};

	const short = (title: string) => title.replace(/^\d+\. /, '');
	const summaryRows = (entry: (typeof all)[number]): Row[] =>
		entry.results
			? entry.results.figures.map((figure) => ({
					Benchmark: short(entry.title),
					Figure: figure.name,
					Value: `${figure.value}${figure.unit ? ` ${figure.unit}` : ''}`,
					Target: figure.target ?? '',
					Met: met(figure),
					Reps: figure.repetitions ?? '',
					Command: `\`${entry.results?.command}\``,
				}))
			: [
					{
						Benchmark: entry.title,
						Figure: 'not run',
						Value: '',
						Target: '',
						Met: '',
						Reps: '',
						Command: `\`npm run bench:${entry.name}\``,
					},
				];
	const summaryHeader = markdownTable(
		summaryRows({ name: '', title: '', results: undefined, kept: undefined }),
	)
		.split('\n')
		.slice(0, 2);
	const summary = [
		...summaryHeader,
		...all.flatMap((entry) => {
			const keptLines = entry.kept ? previous.summaryLines.get(short(entry.title)) : undefined;
			return keptLines ?? markdownTable(summaryRows(entry)).split('\n').slice(2);
		}),
	].join('\n');

	const sections = all.map(({ name, title, results, kept }) => {
		if (!results) return kept ?? `## ${title}\n\nNot run yet: \`npm run bench:${name}\`.`;
		const figures = markdownTable(
			results.figures.map((figure) => ({
				Figure: figure.name,
				Value: `${figure.value}${figure.unit ? ` ${figure.unit}` : ''}`,
				Target: figure.target ?? '',
				Met: met(figure),
				Reps: figure.repetitions ?? '',
				Note: figure.note ?? '',
			})),
		);
		const diagnosis =
			name === 'return-all'
				? `\n\n${returnAllDiagnosis(results)}`
				: name === 'create'
					? `\n\n${createNotes(results)}`
					: name === 'rate-limit'
						? `\n\n${rateLimitNotes(results)}`
						: name === 'trigger'
							? `\n\n${triggerNotes(results)}`
							: '';
		return `## ${title}

Command: \`${results.command}\` · run ${results.date}${results.loadAverage ? ` · load average at the end ${results.loadAverage.join(' / ')} (1/5/15 min, 2 cores)` : ''} · results: \`bench/results/${name}.json\`

${ABOUT[name] ?? ''}

${results.table.title}

${markdownTable(results.table.rows)}

${figures}${diagnosis}`;
	});

	const text = `# Benchmarks

Written by \`bench/markdown.mts\` from \`bench/results/*.json\` at the end of \`npm run bench\`: every number below comes
from the last run of its benchmark (date in each section). Do not edit by hand; run the benchmarks again.

The machine is shared with other work (builds, tests, a real n8n), so wall times carry noise; each section gives
the load average when it finished. Ratios are what to read: each figure is measured in one run: both sides of a comparison run in the same process against the same sandbox,
interleaved (order rotated) after a warm-up, and the medians of the stated number of repetitions are compared.
Benchmarks start their own sandbox on 127.0.0.1 and run the built node (\`dist/\`, built by the npm scripts) through
n8n-core's real engine (test/harness/engine.mts). They are not part of \`npm test\`.

## Machine

${machine ? markdownTable([{ CPU: machine.cpu, Cores: machine.cores, 'Memory (GiB)': machine.memoryGiB, Node: machine.node, OS: machine.os }]) : 'No results yet.'}

Run date: ${all.map(runDate).filter(Boolean).join('; ')}.
${
	totals
		? `\`npm run bench\` took ${round(totals.seconds / 60, 1)} min (${Object.entries(
				totals.benchmarks,
			)
				.map(([name, seconds]) => `${name} ${round(seconds, 0)} s`)
				.join(', ')}), on ${totals.date.slice(0, 10)}.`
		: (previous.totalsLine ?? '')
}

## All figures

${summary}

## Commands

- Everything: \`npm run bench\` (builds, runs the six benchmarks and the profile one after the other, rewrites this file).
- One benchmark: \`npm run bench:return-all\`, \`bench:upload\`, \`bench:create\`, \`bench:create-and-wait\`, \`bench:trigger\`,
  \`bench:rate-limit\`
  (each builds first, prints its tables and writes \`bench/results/<name>.json\`); then \`npx tsx bench/markdown.mts\`
  to rewrite this file. \`BENCH_REPS=<n>\` changes the repetitions. The profile alone: \`npm run bench:profile\`.
  The pacer in simulated time, benchmark 6's cases in two seconds: \`npm run bench:pacer-lab\` (prints only).
  A key used before (the trigger polled it first) against a new one, through n8n: \`npm run bench:used-key\` (prints only).
- A few of them through the full script: \`BENCH_ONLY=upload,trigger npm run bench\` (the total run time is then not recorded).
- The HTTP Request node comes from the real n8n in \`.n8n-e2e/\` (n8n-nodes-base); without it those rows are left out.

${sections.join('\n\n')}

${existsSync(join(RESULTS_DIR, 'profile.json')) ? profileSection() : (previous.sections.get("Profiling: where the node's Return All time goes") ?? profileSection())}
${keptSections()}`;
	writeFileSync(join(process.cwd(), 'BENCHMARKS.md'), text);
	console.log('BENCHMARKS.md written');
}

main();
