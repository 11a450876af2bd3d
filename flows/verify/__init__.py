"""What an arbiter runs to check the pairing engine, as FIDE's endorsement of a pairing program
asks: random tournaments reproducible from a seed (``chessfed generate``) and the cross-check
against another engine (``chessfed crosscheck``, its campaigns)."""
