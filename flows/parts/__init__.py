"""Each rules part of an event in its own home: its pages and letters (its rulebook is under
transforms/), through the protocol of the kind it adds to."""
