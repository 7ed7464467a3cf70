// Runs an ONNX model in onnxruntime (onnxruntime-node) on several input sets.
// stdin: {"model": PATH, "sets": [{NAME: {"type": "float32"|"int64"|"bool", "dims": [...],
// "data": [...]}}, ...]}; stdout: one entry per set, {"outputs": [{"type", "dims",
// "data"}, ...]} or {"error": MESSAGE}.
const path = require("path");
const ort = require(path.join(process.env.D2S_ORT_DIR, "node_modules", "onnxruntime-node"));

async function main() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const req = JSON.parse(Buffer.concat(chunks).toString());
  let session;
  try {
    session = await ort.InferenceSession.create(req.model);
  } catch (e) {
    process.stdout.write(JSON.stringify(req.sets.map(() => ({ error: String(e.message || e) }))));
    return;
  }
  const results = [];
  for (const set of req.sets) {
    try {
      const feeds = {};
      for (const name of session.inputNames) {
        const v = set[name];
        if (!v) throw new Error("no value for input " + name);
        let data;
        if (v.type === "int64") data = BigInt64Array.from(v.data.map((x) => BigInt(x)));
        else if (v.type === "bool") data = Uint8Array.from(v.data.map((x) => (x ? 1 : 0)));
        else data = Float32Array.from(v.data);
        feeds[name] = new ort.Tensor(v.type, data, v.dims);
      }
      const out = await session.run(feeds);
      results.push({
        outputs: session.outputNames.map((n) => ({
          type: out[n].type,
          dims: Array.from(out[n].dims),
          data: Array.from(out[n].data, (x) => (typeof x === "bigint" ? Number(x) : Number(x))),
        })),
      });
    } catch (e) {
      results.push({ error: String(e.message || e) });
    }
  }
  process.stdout.write(JSON.stringify(results));
}
main();
