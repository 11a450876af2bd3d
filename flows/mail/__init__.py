"""Mail: the letters (letters, swiss_letters, gk_letters), their messages (messages), the outbox
and its ledger (outbox), and sending what the outbox keeps (stored)."""
