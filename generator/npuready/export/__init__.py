"""`npuready export`: the INT8 artifact a device runtime loads, checked before it is written.

``stage.export_model`` quantises a float model as ``deploy`` does, lowers it to INT8 TFLite with the
QDQ model's own scales, checks the file tensor by tensor against LiteRT's reference kernels, compiles it
with Vela for an Ethos-U mirror target, and writes the folder described by ``artifact.Manifest``.
"""
