"""Variant files: YAML with positions, `extends`, options, and the schema check."""
