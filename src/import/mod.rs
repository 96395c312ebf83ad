//! Importers: other tools' model formats translated into `.smv` text.
