"""ticket-v0: resolve one customer ticket against a written policy (see docs/ticket.md)."""
