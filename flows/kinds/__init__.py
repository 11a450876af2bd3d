"""Each kind of event in its own home: its flow, its pages and its letters (the rulebook of
each is under transforms/)."""
