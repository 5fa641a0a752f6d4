#!/usr/bin/env node
// Solve Sudoku puzzles with the sudoku-grpc service from Node.js: a small client to copy.
//
//   cd clients/node && npm ci
//   node solve.js '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
//   node solve.js --batch puzzles.txt            # one puzzle per line, streamed through SolveBatch
//   node solve.js --server dns:///sudoku-grpc-headless.default.svc.cluster.local:50051 --batch -
//   node solve.js --grade PUZZLE | --hint PUZZLE | --canonicalize PUZZLE | --generate COUNT
//
// The stubs are built from proto/ at run time by @grpc/proto-loader: nothing generated is checked in.
// A dns:/// target with several addresses (a Kubernetes headless Service) is balanced per call with
// round_robin, and a call that meets UNAVAILABLE (a pod gone or draining) is tried again: both from
// clients/service-config.json.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_DIR = path.resolve(__dirname, '..', '..', 'proto');
const SERVICE_CONFIG = path.resolve(__dirname, '..', 'service-config.json');

/** Loads sudoku.v1 from proto/; returns the package object (SudokuService, Verdict, ...). */
function loadSudoku(protoDir = PROTO_DIR) {
  const definition = protoLoader.loadSync('sudoku/v1/sudoku.proto', {
    includeDirs: [protoDir],
    longs: String, // uint64 fields (index, guesses, solve_time_ns) arrive as decimal strings
    enums: String, // verdicts arrive as names, e.g. 'VERDICT_UNIQUE'
    defaults: true,
  });
  return grpc.loadPackageDefinition(definition).sudoku.v1;
}

/** A SudokuService client. `gzip` compresses every request. */
function createClient(target, { gzip = false } = {}) {
  const sudoku = loadSudoku();
  const options = {
    // Spread calls over every address a dns:/// name resolves to (one per pod behind a headless
    // Service), and retry on UNAVAILABLE with backoff, up to 5 attempts.
    'grpc.service_config': fs.readFileSync(SERVICE_CONFIG, 'utf8'),
  };
  if (gzip) options['grpc.default_compression_algorithm'] = 2; // 2 = gzip
  return new sudoku.SudokuService(target, grpc.credentials.createInsecure(), options);
}

function deadline(seconds) {
  return new Date(Date.now() + seconds * 1000);
}

/** Calls a unary RPC: resolves to its reply, rejects with a grpc ServiceError. */
function unary(client, method, request, timeoutSeconds = 60) {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: deadline(timeoutSeconds) }, (err, reply) => (err ? reject(err) : resolve(reply)));
  });
}

/** Solve one puzzle: resolves to { verdict, solution, stats }. */
function solve(client, puzzle, { skipUniquenessCheck = false, timeoutSeconds = 60 } = {}) {
  return unary(client, 'Solve', { puzzle, skipUniquenessCheck }, timeoutSeconds);
}

/** Grade a puzzle: resolves to { verdict, difficulty, rating, hardestTechnique, techniques, steps, ... }. */
function grade(client, puzzle, { includeSteps = false, timeoutSeconds = 60 } = {}) {
  return unary(client, 'Grade', { puzzle, includeSteps }, timeoutSeconds);
}

/** The next step from the player's board (`progress`, empty: the puzzle): { verdict, steps, mistakes, solved }. */
function hint(client, puzzle, progress = '', { timeoutSeconds = 60 } = {}) {
  return unary(client, 'Hint', { puzzle, progress }, timeoutSeconds);
}

/** The min-lex form of a 9x9 puzzle: { canonical, transform }. */
function canonicalize(client, puzzle, { timeoutSeconds = 60 } = {}) {
  return unary(client, 'Canonicalize', { puzzle }, timeoutSeconds);
}

/** Generate puzzles (a GenerateRequest: { count, seed, difficulty, ... }): resolves to every answer. */
function generate(client, request, { timeoutSeconds = 300 } = {}) {
  return new Promise((resolve, reject) => {
    const replies = [];
    const call = client.Generate(request, { deadline: deadline(timeoutSeconds) });
    call.on('data', (reply) => replies.push(reply));
    call.on('error', reject);
    call.on('end', () => resolve(replies));
  });
}

/**
 * Stream puzzles ([{ id, puzzle }]) through SolveBatch; calls onReply for each answer as it arrives
 * (in request order) and resolves to every answer once the stream ends.
 */
function solveBatch(client, items, { onReply = () => {}, timeoutSeconds = 300 } = {}) {
  return new Promise((resolve, reject) => {
    const replies = [];
    const call = client.SolveBatch({ deadline: deadline(timeoutSeconds) });
    call.on('data', (reply) => {
      replies.push(reply);
      onReply(reply);
    });
    call.on('error', reject);
    call.on('end', () => resolve(replies));
    for (const item of items) call.write(item); // write() buffers; the HTTP/2 stream paces it
    call.end();
  });
}

async function readPuzzles(file) {
  const input = file === '-' ? process.stdin : fs.createReadStream(file);
  const items = [];
  let line = 0;
  for await (const text of readline.createInterface({ input, crlfDelay: Infinity })) {
    line += 1;
    const puzzle = text.trim();
    if (puzzle && !puzzle.startsWith('#')) items.push({ id: String(line), puzzle });
  }
  return items;
}

async function main(argv) {
  const args = { server: 'localhost:50051', gzip: false, batch: null, puzzle: null, rpc: 'solve' };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--server') args.server = argv[++i];
    else if (argv[i] === '--batch') args.batch = argv[++i];
    else if (argv[i] === '--gzip') args.gzip = true;
    else if (['--grade', '--hint', '--canonicalize', '--generate'].includes(argv[i])) args.rpc = argv[i].slice(2);
    else args.puzzle = argv[i];
  }
  if ((args.puzzle === null) === (args.batch === null)) {
    console.error('usage: node solve.js [--server HOST:PORT] [--gzip] [--grade|--hint|--canonicalize] PUZZLE');
    console.error('       node solve.js [--server HOST:PORT] [--gzip] --batch FILE|-');
    console.error('       node solve.js [--server HOST:PORT] --generate COUNT');
    return 64;
  }
  const client = createClient(args.server, { gzip: args.gzip });
  try {
    if (args.rpc === 'grade') {
      const reply = await grade(client, args.puzzle);
      console.log(reply.verdict, reply.difficulty, reply.rating, reply.hardestTechnique);
      return 0;
    }
    if (args.rpc === 'hint') {
      const reply = await hint(client, args.puzzle);
      for (const step of reply.steps) console.log(step.technique, step.explanation);
      return 0;
    }
    if (args.rpc === 'canonicalize') {
      const reply = await canonicalize(client, args.puzzle);
      console.log(reply.canonical, reply.transform);
      return 0;
    }
    if (args.rpc === 'generate') {
      for (const reply of await generate(client, { count: Number(args.puzzle) })) {
        console.log(reply.puzzle, reply.difficulty, reply.rating);
      }
      return 0;
    }
    if (args.puzzle !== null) {
      const reply = await solve(client, args.puzzle);
      console.log(reply.verdict, reply.solution);
      return 0;
    }
    const counts = {};
    await solveBatch(client, await readPuzzles(args.batch), {
      onReply: (reply) => {
        counts[reply.verdict] = (counts[reply.verdict] || 0) + 1;
        console.log(reply.id, reply.verdict, reply.solution || reply.error);
      },
    });
    console.error(Object.entries(counts).sort().map(([v, n]) => `${n} ${v}`).join(', ') || 'no puzzles');
    return counts.VERDICT_INVALID ? 1 : 0;
  } catch (err) {
    console.error(`error: ${grpc.status[err.code]}: ${err.details}`);
    return 2;
  } finally {
    client.close();
  }
}

module.exports = { loadSudoku, createClient, solve, solveBatch, grade, hint, canonicalize, generate };

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
