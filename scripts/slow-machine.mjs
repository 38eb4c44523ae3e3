// A slow machine for `npm run bench`, emulated on the one it runs on: busy loops that take CPU
// away from every other process, tuned until a bare `node -e 0` exits in 45–55 ms (the 2-core
// machine issue 29 measured on, about 2.3× slower than the one before). Each loop is a Node
// process that spins for `duty` of every 10 ms and sleeps the rest; with two loops per core a
// process gets between all of a core (duty 0) and a third of one (duty 1). The scheduler shares
// the cores fairly, so the figures hold on any machine that is not already slower than that.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

const TARGET_MS = { low: 45, high: 55 };
const LOOPS_PER_CORE = 2;
const PERIOD_MS = 10;

/**
 * Starts the busy loops and tunes their duty cycle with `measureNodeExit` (a median of bare
 * Node starts, in ms). Returns what was settled on and `stop`, which ends the loops.
 */
export async function startSlowMachine(measureNodeExit) {
  const cores = availableParallelism();
  let loops = [];
  // A loop's duty is in its argv: a new duty means new loops.
  const run = (thousandths) => {
    for (const loop of loops) loop.kill();
    loops = [];
    const busy = (PERIOD_MS * thousandths) / 1000;
    const script = `const s=new Int32Array(new SharedArrayBuffer(4));for(;;){const t=performance.now();while(performance.now()-t<${busy});Atomics.wait(s,0,0,${PERIOD_MS - busy})}`;
    if (thousandths > 0) for (let index = 0; index < cores * LOOPS_PER_CORE; index++) loops.push(spawn(process.execPath, ["-e", script], { stdio: "ignore" }));
  };
  const inTarget = (ms) => ms >= TARGET_MS.low && ms <= TARGET_MS.high;
  // Bisection over the duty cycle. A machine already slower than the target stays as it is, and
  // one that full duty cannot slow enough is measured at full duty; `in_target` says which.
  let low = 0;
  let high = 1000;
  let duty = 0;
  let nodeExitMs = await measureNodeExit();
  for (let step = 0; step < 8 && !inTarget(nodeExitMs); step++) {
    if (nodeExitMs > TARGET_MS.high) high = duty;
    else low = duty;
    if ((duty === 0 && nodeExitMs > TARGET_MS.high) || (duty === 1000 && nodeExitMs < TARGET_MS.low)) break;
    duty = step === 0 ? 1000 : Math.round((low + high) / 2);
    run(duty);
    await new Promise((resolve) => setTimeout(resolve, 200));
    nodeExitMs = await measureNodeExit();
  }
  return {
    settings: { busy_loops: loops.length, duty: duty / 1000, node_exit_ms: nodeExitMs, in_target: inTarget(nodeExitMs) },
    stop: () => Promise.all(loops.map((loop) => new Promise((resolve) => (loop.exitCode !== null ? resolve() : (loop.once("exit", resolve), loop.kill()))))),
  };
}
