// Times one ONNX model in onnxruntime (onnxruntime-node), the static-graph runtime users
// deploy on: the session is created once, then only `session.run` calls are timed.
// stdin: {"model": PATH, "threads": N, "reps": R, "batch": B, "warmup": W,
//         "feeds": {NAME: {"type": "float32", "dims": [...]} | {"type": "int64", "value": V}}}
// stdout: {"times": [seconds per call of each repetition (the mean of B calls)]}.
// Float inputs are uniform in [-1, 1) from a fixed-seed generator, like bench/peer.py's.
const path = require("path");
const ort = require(path.join(process.env.D2S_ORT_DIR, "node_modules", "onnxruntime-node"));

function uniformFloats(count, seed) {
  // A 32-bit xorshift: cheap, deterministic, and enough for timing inputs.
  const data = new Float32Array(count);
  let s = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    data[i] = (s / 4294967296) * 2 - 1;
  }
  return data;
}

function makeFeeds(spec) {
  const feeds = {};
  let seed = 1;
  for (const [name, v] of Object.entries(spec)) {
    if (v.type === "int64") {
      feeds[name] = new ort.Tensor("int64", BigInt64Array.from([BigInt(v.value)]), []);
    } else {
      const count = v.dims.reduce((a, b) => a * b, 1);
      feeds[name] = new ort.Tensor("float32", uniformFloats(count, seed++), v.dims);
    }
  }
  return feeds;
}

async function main() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const req = JSON.parse(Buffer.concat(chunks).toString());
  const session = await ort.InferenceSession.create(req.model, {
    intraOpNumThreads: req.threads,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });
  const feeds = makeFeeds(req.feeds);
  for (let i = 0; i < req.warmup; i++) await session.run(feeds);
  const times = [];
  for (let r = 0; r < req.reps; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < req.batch; i++) await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e9 / req.batch);
  }
  process.stdout.write(JSON.stringify({ times }));
}
main().catch((e) => {
  process.stderr.write(String((e && e.stack) || e) + "\n");
  process.exit(1);
});
