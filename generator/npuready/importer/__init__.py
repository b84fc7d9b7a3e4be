"""The importer: what exporters write (``-1`` dims, unfused BatchNormalization, Identity/Dropout, slopes
computed by Constant/Unsqueeze nodes, opsets below 13) rewritten into the one form every stage reads, with
each rewrite recorded (``Imported``). ``npuready.graph.load`` runs it on every model it loads."""
from npuready.importer.canonicalise import PASSES, canonicalise
from npuready.importer.record import Imported, Rewrite

__all__ = ["Imported", "PASSES", "Rewrite", "canonicalise"]
