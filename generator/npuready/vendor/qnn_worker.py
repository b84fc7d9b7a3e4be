"""Run a QDQ ONNX model on Qualcomm's HTP backend and on onnxruntime's CPU provider (inside .venv-qnn).

Standalone on purpose: it runs under the onnxruntime-qnn environment's Python, which has no npuready.
Usage: python qnn_worker.py MODEL.onnx INPUTS.npz OUTPUTS.npz
INPUTS.npz holds ``x`` (N × the model input's shape without the batch dim, float32); OUTPUTS.npz gets
``htp_<i>`` and ``cpu_<i>`` for each model output i (N × …) and ``seconds`` (HTP session build, run).
onnxruntime's verbose log, which names every node the QNN EP refuses and why and where each node was
placed, goes to stderr for the caller to parse.
"""
import sys
import time

import numpy as np
import onnxruntime as ort
import onnxruntime_qnn as qnn


def htp_session(model: str) -> ort.InferenceSession:
    ort.register_execution_provider_library(qnn.EP_NAME, qnn.get_library_path())
    devices = [d for d in ort.get_ep_devices() if d.ep_name == qnn.EP_NAME]
    so = ort.SessionOptions()
    so.log_severity_level = 0  # verbose: GetCapability reasons and node placements
    so.add_provider_for_devices(devices, {"backend_path": qnn.get_qnn_htp_path()})
    return ort.InferenceSession(model, so)


def run(sess: ort.InferenceSession, x: np.ndarray) -> list[np.ndarray]:
    name = sess.get_inputs()[0].name
    per = [sess.run(None, {name: x[i:i + 1]}) for i in range(len(x))]
    return [np.concatenate([p[k] for p in per]) for k in range(len(per[0]))] if per else []


def main(model: str, inputs: str, outputs: str) -> None:
    x = np.load(inputs)["x"].astype(np.float32)
    t0 = time.perf_counter()
    htp = htp_session(model)
    t1 = time.perf_counter()
    got = run(htp, x)
    t2 = time.perf_counter()
    cpu = run(ort.InferenceSession(model, providers=["CPUExecutionProvider"]), x)
    arrays = {f"htp_{i}": a for i, a in enumerate(got)}
    arrays.update({f"cpu_{i}": a for i, a in enumerate(cpu)})
    arrays["seconds"] = np.asarray([t1 - t0, t2 - t1])
    sys.stderr.flush()
    np.savez(outputs, **arrays)
    print(f"onnxruntime-qnn {qnn.__version__}, onnxruntime {ort.__version__}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
