"""Round-robin tournaments: the FIDE Berger tables (C.05 Annex 1), in ``berger``."""
