"""Rules a person can read: the rulebook of a variant, the diff of two, the language reference, and the
account of a deal's payments."""
