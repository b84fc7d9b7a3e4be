"""Native back ends of the Ethos-U weight codec (``npuready.cost.weight_codec`` is the NumPy reference)."""
