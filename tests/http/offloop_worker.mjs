// offloop_worker: runs one of the harness's blocking helpers (solve,
// solveSchulte, gen, replayCli) off the test's event loop, for
// harness.mjs offLoop, and posts back its result. It loads solvers.mjs
// only: nothing of the contract check.
import { parentPort, workerData } from 'node:worker_threads';
import { solve, solveSchulte, gen, replayCli } from './solvers.mjs';

const helpers = { solve, solveSchulte, gen, replayCli };
parentPort.postMessage(helpers[workerData.name](...workerData.args));
