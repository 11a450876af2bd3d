"""FIDE regulations: the Tournament Report File (C.04 Annex 2, TRF16 / TRF-2025), the
tie-breaks (C.07) and standings, and the Dutch pairing system (C.04.3, in ``dutch/``)."""
