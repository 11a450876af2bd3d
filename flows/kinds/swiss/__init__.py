"""The Swiss kind (any FIDE Swiss; a round robin runs the same way): its flow, pages and
letters."""
