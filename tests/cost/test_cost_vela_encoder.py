"""Vela 5.2.0's own weight encoder called through its C interface (npuready.cost.native.vela_encoder): the
sizes it returns equal the NumPy reference's on the edge-case streams the native codec is tested on."""
import numpy as np
import pytest

from npuready.cost.native import vela_encoder
from npuready.cost.weight_codec import stream_bytes

from .test_cost_native_codec import edge_streams

pytestmark = pytest.mark.skipif(not vela_encoder.available(), reason="ethos-u-vela 5.2.0 is not installed")


def test_vela_encoder_sizes_equal_the_reference():
    for name, values in edge_streams():
        if values.size:  # Vela never encodes an empty stream
            assert vela_encoder.stream_bytes(values) == stream_bytes(values), name


def test_vela_python_level_codec_is_another_encoder():
    # ethosu.mlw_codec.encode (Vela's older Python compiler) sizes an all-zero stream differently: the reason
    # the binding calls regor's encoder instead
    from ethosu import mlw_codec

    zeros = np.zeros(5000, dtype=np.int64)
    assert len(mlw_codec.encode(zeros.tolist())) != stream_bytes(zeros) == vela_encoder.stream_bytes(zeros)
