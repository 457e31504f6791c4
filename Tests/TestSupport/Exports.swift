// Tests that import TestSupport get the TIFF mutator too (the mutation tests in RawFilesTests and CLITests).
@_exported import TIFFMutation
