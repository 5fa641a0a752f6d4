// End-to-end test of the Node example client against a real server at $SUDOKU_TEST_ADDR
// (scripts/e2e-node.sh starts one). Run: SUDOKU_TEST_ADDR=127.0.0.1:50051 node --test test/
'use strict';

const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test, after } = require('node:test');
const grpc = require('@grpc/grpc-js');
const { createClient, solve, solveBatch, grade, hint, canonicalize, generate } = require('../solve.js');

const ADDR = process.env.SUDOKU_TEST_ADDR;
assert.ok(ADDR, 'set SUDOKU_TEST_ADDR to a running server (host:port)');

const CLASSIC = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const CLASSIC_SOLUTION = '534678912672195348198342567859761423426853791713924856961537284287419635345286179';
const DATA = path.resolve(__dirname, '..', '..', '..', 'tests', 'data');
const readPuzzles = (name) =>
  fs
    .readFileSync(path.join(DATA, name), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
const puzzles = readPuzzles('17_clue_sample.txt');
const solutionAt = ({ row, col }) => CLASSIC_SOLUTION[row * 9 + col];

function checkSolution(puzzle, solution) {
  assert.match(solution, /^[1-9]{81}$/);
  const g = [...solution].map(Number);
  const full = (cells) => assert.deepEqual([...cells].sort(), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  for (let i = 0; i < 9; i += 1) {
    full(g.slice(i * 9, i * 9 + 9));
    full([0, 1, 2, 3, 4, 5, 6, 7, 8].map((r) => g[r * 9 + i]));
    const r0 = Math.floor(i / 3) * 3;
    const c0 = (i % 3) * 3;
    full([0, 1, 2].flatMap((dr) => [0, 1, 2].map((dc) => g[(r0 + dr) * 9 + c0 + dc])));
  }
  [...puzzle].forEach((ch, i) => {
    if (ch !== '.' && ch !== '0') assert.equal(g[i], Number(ch), `given at cell ${i}`);
  });
}

const client = createClient(ADDR);
after(() => client.close());

test('Solve returns the unique solution', async () => {
  const reply = await solve(client, CLASSIC);
  assert.equal(reply.verdict, 'VERDICT_UNIQUE');
  assert.equal(reply.solution, CLASSIC_SOLUTION);
  assert.ok(reply.stats, 'stats present');
});

test('Solve with skipUniquenessCheck says VERDICT_SOLVED', async () => {
  const reply = await solve(client, puzzles[0], { skipUniquenessCheck: true });
  assert.equal(reply.verdict, 'VERDICT_SOLVED');
  checkSolution(puzzles[0], reply.solution);
});

test('an invalid Solve fails with INVALID_ARGUMENT naming the problem', async () => {
  await assert.rejects(solve(client, '55' + '.'.repeat(79)), (err) => {
    assert.equal(err.code, grpc.status.INVALID_ARGUMENT);
    assert.match(err.details, /row 1/i);
    return true;
  });
});

test('SolveBatch answers every item in order, bad items in place', async () => {
  const items = puzzles.slice(0, 200).map((puzzle, i) => ({ id: `p${i}`, puzzle }));
  items.splice(3, 0, { id: 'bad-chars', puzzle: 'not a sudoku' });
  const replies = await solveBatch(client, items);
  assert.equal(replies.length, items.length);
  replies.forEach((reply, i) => {
    assert.equal(reply.index, String(i));
    assert.equal(reply.id, items[i].id);
    if (items[i].id.startsWith('bad-')) {
      assert.equal(reply.verdict, 'VERDICT_INVALID');
      assert.ok(reply.error);
    } else {
      assert.equal(reply.verdict, 'VERDICT_UNIQUE');
      checkSolution(items[i].puzzle, reply.solution);
    }
  });
});

test('an empty SolveBatch ends OK with no answers', async () => {
  assert.deepEqual(await solveBatch(client, []), []);
});

test('gzip-compressed requests are accepted', async () => {
  const gz = createClient(ADDR, { gzip: true });
  try {
    assert.equal((await solve(gz, CLASSIC)).solution, CLASSIC_SOLUTION);
    const replies = await solveBatch(gz, puzzles.slice(0, 20).map((puzzle, i) => ({ id: String(i), puzzle })));
    assert.equal(replies.length, 20);
  } finally {
    gz.close();
  }
});

test('the example CLI solves a puzzle and a file', async () => {
  const cli = path.resolve(__dirname, '..', 'solve.js');
  const run = (...args) =>
    new Promise((resolve) => {
      execFile(process.execPath, [cli, '--server', ADDR, ...args], { timeout: 60000 }, (err, stdout, stderr) =>
        resolve({ code: err ? err.code : 0, stdout, stderr }),
      );
    });
  let out = await run(CLASSIC);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim(), `VERDICT_UNIQUE ${CLASSIC_SOLUTION}`);

  const file = path.join(fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'sudoku-')), 'puzzles.txt');
  fs.writeFileSync(file, `${puzzles.slice(0, 3).join('\n')}\n`);
  out = await run('--batch', file);
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(
    out.stdout.trim().split('\n').map((l) => l.split(' ').slice(0, 2)),
    [['1', 'VERDICT_UNIQUE'], ['2', 'VERDICT_UNIQUE'], ['3', 'VERDICT_UNIQUE']],
  );
  assert.match(out.stderr, /3 VERDICT_UNIQUE/);
});

test('a SolveBatch past its deadline ends with DEADLINE_EXCEEDED, and the server goes on', async () => {
  const hard = readPuzzles('forum_hardest_1905_11plus_sample.txt');
  // Far more work than half a second; write() buffers what the server is not ready to read.
  const items = Array.from({ length: 50000 }, (_, i) => ({ id: String(i), puzzle: hard[i % hard.length] }));
  const started = Date.now();
  await assert.rejects(solveBatch(client, items, { timeoutSeconds: 0.5 }), (err) => {
    assert.equal(err.code, grpc.status.DEADLINE_EXCEEDED);
    return true;
  });
  assert.ok(Date.now() - started < 10000, 'slow to end');
  assert.equal((await solve(client, CLASSIC)).solution, CLASSIC_SOLUTION);
});

// The new RPCs: real answers required, UNIMPLEMENTED fails.

test('Grade rates a unique puzzle, every placement agrees with the solution', async () => {
  const reply = await grade(client, CLASSIC, { includeSteps: true });
  assert.equal(reply.verdict, 'VERDICT_UNIQUE');
  assert.equal(reply.clues, 30);
  assert.ok(reply.rating > 0, `rating ${reply.rating}`);
  assert.notEqual(reply.difficulty, 'DIFFICULTY_UNSPECIFIED');
  assert.notEqual(reply.hardestTechnique, 'TECHNIQUE_UNSPECIFIED');
  assert.ok(reply.steps.length > 0, 'steps');
  for (const step of reply.steps) {
    for (const p of step.placements) assert.equal(p.symbol, solutionAt(p), step.explanation);
  }
});

test('Hint ends in a right placement, and names a wrong entry as a mistake', async () => {
  let reply = await hint(client, CLASSIC);
  assert.equal(reply.verdict, 'VERDICT_UNIQUE');
  assert.equal(reply.solved, false);
  assert.deepEqual(reply.mistakes, []);
  const last = reply.steps.at(-1);
  assert.ok(last && last.placements.length > 0, 'the last step places a symbol');
  assert.equal(last.placements[0].symbol, solutionAt(last.placements[0]));
  // 1 at r1c3, where the solution has 4.
  reply = await hint(client, CLASSIC, `531${CLASSIC.slice(3)}`);
  assert.deepEqual(
    reply.mistakes.map(({ row, col, symbol }) => ({ row, col, symbol })),
    [{ row: 0, col: 2, symbol: '1' }],
  );
  assert.deepEqual(reply.steps, []);
});

test('Generate streams unique puzzles, the same ones for the same seed', async () => {
  const first = await generate(client, { count: 3, seed: 42 });
  const again = await generate(client, { count: 3, seed: 42 });
  assert.equal(first.length, 3);
  assert.deepEqual(
    again.map((g) => g.puzzle),
    first.map((g) => g.puzzle),
  );
  for (const [i, g] of first.entries()) {
    assert.equal(g.index, String(i));
    checkSolution(g.puzzle, g.solution);
    assert.equal(g.clues, [...g.puzzle].filter((ch) => ch !== '.').length);
    const solved = await solve(client, g.puzzle);
    assert.deepEqual([solved.verdict, solved.solution], ['VERDICT_UNIQUE', g.solution]);
  }
});

test('Canonicalize gives one key to a puzzle and its relabelled transpose', async () => {
  // The transpose of the classic puzzle with every digit d relabelled 10-d.
  const other = Array.from({ length: 81 }, (_, i) => {
    const ch = CLASSIC[(i % 9) * 9 + Math.floor(i / 9)];
    return ch === '.' ? '.' : String(10 - Number(ch));
  }).join('');
  const key = (await canonicalize(client, CLASSIC)).canonical;
  assert.match(key, /^[0-9]{81}$/);
  assert.equal([...key].filter((ch) => ch !== '0').length, 30);
  const reply = await canonicalize(client, other);
  assert.equal(reply.canonical, key);
  assert.ok(reply.transform, 'a transform');
  assert.equal((await canonicalize(client, key)).canonical, key);
});

test('the service config (round_robin, retries on UNAVAILABLE) goes past a dead address', async () => {
  // A port nobody listens on: bound, then let go.
  const net = require('node:net');
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const dead = `127.0.0.1:${probe.address().port}`;
  await new Promise((resolve) => probe.close(resolve));
  const [host, port] = [ADDR.slice(0, ADDR.lastIndexOf(':')), ADDR.slice(ADDR.lastIndexOf(':') + 1)];
  const { address } = await require('node:dns').promises.lookup(host, { family: 4 });
  const both = createClient(`ipv4:${dead},${address}:${port}`);
  try {
    for (let i = 0; i < 10; i++) {
      const reply = await solve(both, CLASSIC);
      assert.equal(reply.solution, CLASSIC_SOLUTION);
    }
  } finally {
    both.close();
  }
});
