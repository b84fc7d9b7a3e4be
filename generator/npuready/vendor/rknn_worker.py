"""Compile a float ONNX model with Rockchip's RKNN-Toolkit2 and run its INT8 build on the simulator (inside .venv-rknn).

Standalone on purpose: it runs under the RKNN environment's Python (numpy 1.26, onnx 1.18), which has no npuready.
Usage: python rknn_worker.py MODEL.onnx CALIB.npz TEST.npz PLATFORM OUT.rknn OUTPUTS.npz
CALIB.npz / TEST.npz hold ``x`` (N × C × H × W float32, the model's own input: mean 0 / std 1 is given to
RKNN, so it applies no normalisation of its own). RKNN quantises with its default (asymmetric int8,
normal algorithm) on CALIB, writes OUT.rknn (what the Rockchip NPU runtime loads), then runs TEST on
its simulator (``init_runtime()`` without a device). OUTPUTS.npz gets ``out_<i>`` per model output.
With ``verbose=True`` librknnc prints the "Network Layer Information Table" (per layer: NPU or CPU,
DDR/NPU/total cycles) on the log, which the caller parses.
"""
import os
import sys
import tempfile

import numpy as np
from rknn.api import RKNN


def main(model, calib, test, platform, out_rknn, outputs):
    x_cal = np.load(calib)["x"].astype(np.float32)
    x_test = np.load(test)["x"].astype(np.float32)
    channels = int(x_cal.shape[1])
    r = RKNN(verbose=True)
    r.config(target_platform=platform, mean_values=[[0] * channels], std_values=[[1] * channels])
    if r.load_onnx(model=model) != 0:
        sys.exit("RKNN-Toolkit2 could not load the ONNX model")
    with tempfile.TemporaryDirectory(prefix="npuready-rknn-") as tmp:
        for i in range(len(x_cal)):
            np.save(os.path.join(tmp, f"c{i:05d}.npy"), x_cal[i:i + 1])
        listing = os.path.join(tmp, "dataset.txt")
        with open(listing, "w") as f:
            f.write("".join(f"c{i:05d}.npy\n" for i in range(len(x_cal))))
        if r.build(do_quantization=True, dataset=listing) != 0:
            sys.exit("RKNN-Toolkit2 build (INT8 quantisation) failed")
    if r.export_rknn(out_rknn) != 0:
        sys.exit("RKNN-Toolkit2 could not export the .rknn file")
    if r.init_runtime() != 0:
        sys.exit("RKNN-Toolkit2 simulator did not start")
    per = [r.inference(inputs=[x_test[i:i + 1]], data_format="nchw") for i in range(len(x_test))]
    arrays = {f"out_{k}": np.concatenate([p[k] for p in per]) for k in range(len(per[0]))} if per else {}
    np.savez(outputs, **arrays)
    r.release()
    import importlib.metadata as md

    print(f"\nrknn-toolkit2 {md.version('rknn-toolkit2')}")


if __name__ == "__main__":
    main(*sys.argv[1:7])
