// Solve ISS constraint strings (from iss.py) with sigh's Interactive Sudoku Solver, in process, and
// time it: an outside anchor for the variant benchmark.
//
//   node scripts/variants/iss_bench.mjs ISS_DIR FILE_OF_ISS_STRINGS [--each] [--warm N]
//
// (--each: also each puzzle's time on stderr. --warm N: solve the first N puzzles once, untimed,
// before the timed pass, 10 by default: Node's JIT takes that many to settle, building ISS's
// solver going from ~10 ms to ~1 ms a puzzle.)
// ISS_DIR is a checkout of the Interactive Sudoku Solver (nothing of it is copied here: its modules
// are imported from the checkout at run time, after its own headless bootstrap
// tests/helpers/test_env.js, as its tools/lib/puzzle_runner.js does). For each line it counts
// solutions up to two (uniqueness mode) and prints the verdict (UNIQUE, MULTIPLE, UNSOLVABLE) and
// the first solution, as cpsat.py does; a line `ERROR` (or one ISS refuses) prints `ERROR` and the
// reason on stderr, and the exit code is 1. The time per puzzle goes to stderr: building the solver
// (its handlers) and searching, as our bench times variant::solve on a puzzle already read; then the
// search alone, which is what ISS's own tools/perf/benchmark_puzzles.js times. Not timed: parsing the
// string (as our bench does not time reading f-puzzles), Node's start-up, loading modules, and the
// untimed solves that warm the JIT (--warm).

import { readFileSync, existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const args = process.argv.slice(2);
const each = args.includes('--each');
const warmAt = args.indexOf('--warm');
const warmCount = warmAt >= 0 ? Number(args[warmAt + 1]) : 10;
const [issDir, file] = args.filter(
  (a, i) => a !== '--each' && !(warmAt >= 0 && (i === warmAt || i === warmAt + 1)));
if (!issDir || !file || !(Number.isInteger(warmCount) && warmCount >= 0)) {
  console.error(
    'usage: node scripts/variants/iss_bench.mjs ISS_DIR FILE_OF_ISS_STRINGS [--each] [--warm N]');
  process.exit(2);
}
const root = resolve(issDir);
const need = ['tests/helpers/test_env.js', 'js/sudoku_parser.js', 'js/solver/sudoku_builder.js'];
for (const f of need) {
  if (!existsSync(join(root, f))) {
    console.error(`${root} is not an Interactive Sudoku Solver checkout: no ${f}`);
    process.exit(2);
  }
}
const load = (f) => import(pathToFileURL(join(root, f)).href + (globalThis.VERSION_PARAM || ''));

const { ensureGlobalEnvironment } = await import(pathToFileURL(join(root, need[0])).href);
ensureGlobalEnvironment();
const { SudokuParser } = await load('js/sudoku_parser.js');
const { SudokuBuilder } = await load('js/solver/sudoku_builder.js');

const DIGITS = '123456789ABCDEFG';

// Returns [verdict, solution, ms building the solver and searching, ms searching alone].
const solve = (input) => {
  const constraint = SudokuParser.parseText(input);
  const start = performance.now();
  const resolved = SudokuBuilder.resolveConstraint(constraint);
  const internal = SudokuBuilder.build(resolved)._internalSolver;
  const geometry = internal._geometry;
  let count = 0;
  let first = null;
  const searchStart = performance.now();
  internal.run({ maxSolutions: 2 }, (grid) => {
    count++;
    if (first === null) first = grid.slice(0, geometry.numGridCells);
  });
  const end = performance.now();
  const exhausted = internal.state === internal.constructor.STATE_EXHAUSTED;
  if (count < 2 && !exhausted) throw new Error('the search stopped before it was exhausted');
  const verdict = count === 0 ? 'UNSOLVABLE' : count === 1 ? 'UNIQUE' : 'MULTIPLE';
  let solution = '';
  if (first) {
    for (const mask of first) {
      if (!mask || (mask & (mask - 1))) throw new Error('a solution cell without one value');
      const value = 31 - Math.clz32(mask) + 1 + geometry.valueOffset;
      solution += DIGITS[value - 1];
    }
  }
  return [verdict, solution, end - start, end - searchStart];
};

const lines = readFileSync(file, 'utf8').split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'));
// Untimed solves of the first puzzles first, so that the times are not those of a cold JIT
// (CP-SAT's script solves its first puzzle once too).
for (const line of lines.filter((l) => l.trim() !== 'ERROR').slice(0, warmCount)) {
  try { solve(line.trim()); } catch (e) { /* reported below */ }
}
const times = [];
const searches = [];
let failed = 0;
lines.forEach((line, k) => {
  const input = line.trim();
  if (input === 'ERROR') {
    console.error(`${file}: puzzle ${k + 1}: not converted (see iss.py's message)`);
    console.log('ERROR');
    failed++;
    return;
  }
  let verdict, solution, total, search;
  try {
    [verdict, solution, total, search] = solve(input);
  } catch (e) {
    console.error(`${file}: puzzle ${k + 1}: ISS: ${e.message}`);
    console.log('ERROR');
    failed++;
    return;
  }
  times.push(total);
  searches.push(search);
  if (each) console.error(`puzzle ${k + 1}: ${total.toFixed(3)} ms (search ${search.toFixed(3)} ms) ${verdict}`);
  console.log(`${verdict} ${solution}`);
});
times.sort((a, b) => a - b);
const mean = times.reduce((a, b) => a + b, 0) / Math.max(times.length, 1);
const p50 = times.length ? times[times.length >> 1] : 0;
const searchMean = searches.reduce((a, b) => a + b, 0) / Math.max(searches.length, 1);
console.error(`iss: ${times.length} puzzles, ${mean.toFixed(3)} ms each (mean), p50 ${p50.toFixed(3)} ms; ` +
  `search alone ${searchMean.toFixed(3)} ms (mean)`);
process.exitCode = failed ? 1 : 0;
