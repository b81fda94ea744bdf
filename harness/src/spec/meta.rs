//! `_meta` key rules: the prefix and name grammar, and the reserved prefixes.
