"""FIDE regulations: the Tournament Report File (C.04 Annex 2, TRF16 / TRF-2026) and the rating
report (Rating Regulations 9.1), the tie-breaks (C.07) and standings, and the Dutch pairing
system (C.04.3, in ``dutch/``)."""
