//! The function libraries a store holds, in load order: what FUNCTION LOAD adds and FCALL
//! calls into. The script cache owns them (so a cloned store shares them as it shares its
//! scripts); the FUNCTION commands in `functions` edit them.

use crate::lua::{FunctionInfo, Library};

/// The loaded libraries, in load order.
#[derive(Clone, Default)]
pub(crate) struct Libraries {
    pub(super) loaded: Vec<Loaded>,
}

/// One library: its name, its whole code as loaded (for WITHCODE), and the compiled library.
#[derive(Clone)]
pub(super) struct Loaded {
    pub(super) name: Vec<u8>,
    pub(super) code: Vec<u8>,
    pub(super) library: Library,
}

impl Libraries {
    /// The library holding function `name` (by position), and that function.
    pub(super) fn function(&self, name: &[u8]) -> Option<(usize, &FunctionInfo)> {
        self.loaded.iter().enumerate().find_map(|(at, loaded)| {
            loaded
                .library
                .functions()
                .iter()
                .find(|f| f.name.eq_ignore_ascii_case(name))
                .map(|f| (at, f))
        })
    }

    /// Function `name` as it was registered (FCALL finds it in any case), for a server's
    /// FUNCTION STATS.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn registered_name(&self, name: &[u8]) -> Option<Vec<u8>> {
        self.function(name).map(|(_, f)| f.name.clone())
    }

    /// How many libraries and functions are loaded, as FUNCTION STATS counts them.
    pub(crate) fn counts(&self) -> FunctionCounts {
        FunctionCounts {
            libraries: self.loaded.len(),
            functions: self
                .loaded
                .iter()
                .map(|l| l.library.functions().len())
                .sum(),
        }
    }

    /// The library at position `at`, to call a function of it.
    pub(crate) fn library_mut(&mut self, at: usize) -> &mut Library {
        &mut self.loaded[at].library
    }
}

/// FUNCTION STATS's counts for the one engine, Lua.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FunctionCounts {
    pub(crate) libraries: usize,
    pub(crate) functions: usize,
}
