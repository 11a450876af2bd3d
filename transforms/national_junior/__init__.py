"""53rd National Junior (U-19) and 38th National Junior Girls (U-19) Championships 2024, India
(seed ``004_57e04720007abfb4.txt``): entries, eligibility and fees (entries), the last-round
same-state rule (same_state), the draw agreement before move 30 (draw_agreement)."""
