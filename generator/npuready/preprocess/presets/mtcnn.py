"""MTCNN's P-/R-/O-Net as facenet-pytorch 2.6.0 feeds them (``models/utils/detect_face.py``).

RGB (PIL images), resized with torch's ``interpolate(mode="area")`` (adaptive average pooling, float
pixels, no rounding to 8 bits) to the net's input size, then (x - 127.5) * 0.0078125, i.e. / 128.
"""
from npuready.preprocess.spec import PreprocessSpec

PRESET = PreprocessSpec(
    name="mtcnn", color="RGB", dtype="float32", layout="NCHW", resizer="torch-area", interpolation="box",
    fit_model_size="resize", mean=(127.5, 127.5, 127.5), std=(128.0, 128.0, 128.0),
    description="MTCNN face detector nets: RGB resized to the net's input size by area averaging (torch's "
                "interpolate mode 'area', float), (x - 127.5)/128, float32 NCHW.",
    source="facenet-pytorch 2.6.0: models/utils/detect_face.py imresample and (im_data - 127.5) * 0.0078125")
