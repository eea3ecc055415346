//! The lab chunks' files named after what they hold. Trunk writes each chunk's under fixed names
//! (`<bin>.js`, `<bin>_bg.wasm`, `<bin>_loader.js`: the asset type that keeps them out of the page
//! load names them for the binary), which no cache can tell apart from one build to the next. The
//! build renames them after a hash of their content and writes the loader's name into the chunk's
//! `<meta name="lockdive:lab-…">`, which the first wasm reads (`LabChunk::loader_meta`).

use std::fmt;
use std::fs;
use std::path::Path;

use lockdive_contract::lab::LabChunk;

/// The files Trunk writes for a chunk, and the one text each must hold for the renaming to be
/// followed: the glue names the wasm it fetches, the loader the glue it imports.
struct TrunkFiles {
    wasm: String,
    glue: String,
    loader: String,
    wasm_in_glue: String,
    glue_in_loader: String,
}

impl TrunkFiles {
    fn of(chunk: LabChunk) -> TrunkFiles {
        let bin = chunk.bin();
        TrunkFiles {
            wasm: format!("{bin}_bg.wasm"),
            glue: format!("{bin}.js"),
            loader: chunk.loader().to_string(),
            wasm_in_glue: format!("'{bin}_bg.wasm'"),
            glue_in_loader: format!("'./{bin}.js'"),
        }
    }
}

/// Why the lab's files could not be renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabFilesError {
    /// A file could not be read, written or removed.
    Io(String),
    /// A file does not hold the reference to rename, exactly once: wasm-bindgen or Trunk changed
    /// what they write, and renaming blindly would break the lab.
    Reference { file: String, expected: String },
    /// The page has no `<meta name="lockdive:lab-…">` to name the chunk's loader in.
    NoMeta(&'static str),
}

impl fmt::Display for LabFilesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabFilesError::Io(why) => f.write_str(why),
            LabFilesError::Reference { file, expected } => {
                write!(f, "{file} does not name {expected} exactly once")
            }
            LabFilesError::NoMeta(meta) => write!(f, "the page has no <meta name=\"{meta}\">"),
        }
    }
}

impl std::error::Error for LabFilesError {}

/// Renames `chunk`'s files in `folder` after their content (`<bin>-<hash>.js`,
/// `<bin>-<hash>_bg.wasm`, `<bin>-<hash>_loader.js`) and returns the loader's new name; `None` when
/// the folder holds no such chunk under Trunk's names (none built, or renamed by an earlier run).
pub fn fingerprint(folder: &Path, chunk: LabChunk) -> Result<Option<String>, LabFilesError> {
    let io = |what: &str, path: &Path, e: std::io::Error| {
        LabFilesError::Io(format!("cannot {what} {}: {e}", path.display()))
    };
    let files = TrunkFiles::of(chunk);
    let (wasm_path, glue_path, loader_path) = (
        folder.join(&files.wasm),
        folder.join(&files.glue),
        folder.join(&files.loader),
    );
    if !wasm_path.is_file() {
        return Ok(None);
    }
    let wasm = fs::read(&wasm_path).map_err(|e| io("read", &wasm_path, e))?;
    let glue = fs::read_to_string(&glue_path).map_err(|e| io("read", &glue_path, e))?;
    let loader = fs::read_to_string(&loader_path).map_err(|e| io("read", &loader_path, e))?;

    let stem = format!(
        "{}-{:016x}",
        chunk.bin(),
        content_hash(&[&wasm, glue.as_bytes()])
    );
    let (new_wasm, new_glue, new_loader) = (
        format!("{stem}_bg.wasm"),
        format!("{stem}.js"),
        format!("{stem}_loader.js"),
    );
    let glue = replace_once(
        &glue,
        &files.glue,
        &files.wasm_in_glue,
        &format!("'{new_wasm}'"),
    )?;
    let loader = replace_once(
        &loader,
        &files.loader,
        &files.glue_in_loader,
        &format!("'./{new_glue}'"),
    )?;

    for (path, bytes) in [
        (folder.join(&new_wasm), wasm.as_slice()),
        (folder.join(&new_glue), glue.as_bytes()),
        (folder.join(&new_loader), loader.as_bytes()),
    ] {
        fs::write(&path, bytes).map_err(|e| io("write", &path, e))?;
    }
    for path in [&wasm_path, &glue_path, &loader_path] {
        fs::remove_file(path).map_err(|e| io("remove", path, e))?;
    }
    Ok(Some(new_loader))
}

/// `html` with `chunk`'s `<meta name="lockdive:lab-…">` naming `loader`.
pub fn name_loader_in_page(
    html: &str,
    chunk: LabChunk,
    loader: &str,
) -> Result<String, LabFilesError> {
    let meta = chunk.loader_meta();
    let mut from = 0;
    while let Some(at) = html[from..].find("<meta").map(|a| from + a) {
        let tag_end = html[at..].find('>').map_or(html.len(), |e| at + e);
        let tag = &html[at..tag_end];
        from = tag_end;
        if !tag.contains(&format!("name=\"{meta}\"")) {
            continue;
        }
        let Some(value_start) = tag.find("content=\"").map(|c| at + c + "content=\"".len()) else {
            return Err(LabFilesError::NoMeta(meta));
        };
        let Some(value_end) = html[value_start..tag_end]
            .find('"')
            .map(|e| value_start + e)
        else {
            return Err(LabFilesError::NoMeta(meta));
        };
        return Ok(format!(
            "{}{loader}{}",
            &html[..value_start],
            &html[value_end..]
        ));
    }
    Err(LabFilesError::NoMeta(meta))
}

/// `text` with its one `expected` replaced, or an error naming `file` if it is not there once.
fn replace_once(
    text: &str,
    file: &str,
    expected: &str,
    with: &str,
) -> Result<String, LabFilesError> {
    if text.matches(expected).count() != 1 {
        return Err(LabFilesError::Reference {
            file: file.to_string(),
            expected: expected.to_string(),
        });
    }
    Ok(text.replacen(expected, with, 1))
}

/// FNV-1a over the parts: a cache key, not a defence against anyone, so no cryptographic hash.
fn content_hash(parts: &[&[u8]]) -> u64 {
    parts
        .iter()
        .flat_map(|part| part.iter())
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

#[cfg(test)]
mod tests {
    use super::{fingerprint, name_loader_in_page, LabFilesError};
    use lockdive_contract::lab::LabChunk;
    use std::fs;
    use std::path::PathBuf;

    /// The chunk the tests build files for.
    const CHUNK: LabChunk = LabChunk::Figures;

    /// A folder holding a lab as Trunk writes it, removed on drop.
    struct BuiltLab(PathBuf);

    impl BuiltLab {
        fn new(name: &str, glue: &str) -> BuiltLab {
            let folder = std::env::temp_dir()
                .join(format!("lockdive-lab-files-{name}-{}", std::process::id()));
            fs::create_dir_all(&folder).expect("a scratch folder");
            fs::write(folder.join("lab-figures_bg.wasm"), b"\0asm wasm").expect("wasm");
            fs::write(folder.join("lab-figures.js"), glue).expect("glue");
            fs::write(
                folder.join("lab-figures_loader.js"),
                "import init from './lab-figures.js';await init();",
            )
            .expect("loader");
            BuiltLab(folder)
        }

        fn files(&self) -> Vec<String> {
            let mut names: Vec<String> = fs::read_dir(&self.0)
                .expect("listed")
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect();
            names.sort();
            names
        }
    }

    impl Drop for BuiltLab {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    const GLUE: &str = "imports['./lab-figures_bg.js'] = x;\nmodule_or_path = new URL('lab-figures_bg.wasm', import.meta.url);";

    #[test]
    fn the_labs_files_are_renamed_after_their_content_and_point_at_each_other() {
        let lab = BuiltLab::new("renamed", GLUE);
        let loader = fingerprint(&lab.0, CHUNK)
            .expect("renamed")
            .expect("a lab was there");
        let stem = loader.strip_suffix("_loader.js").expect("a loader name");
        assert!(stem.starts_with("lab-figures-"), "{stem}");
        assert_eq!(
            lab.files(),
            vec![
                format!("{stem}.js"),
                format!("{stem}_bg.wasm"),
                loader.clone()
            ]
        );
        let glue = fs::read_to_string(lab.0.join(format!("{stem}.js"))).expect("glue");
        assert!(
            glue.contains(&format!("new URL('{stem}_bg.wasm'")),
            "{glue}"
        );
        assert!(
            glue.contains("'./lab-figures_bg.js'"),
            "the wasm's import module keeps its name"
        );
        let shim = fs::read_to_string(lab.0.join(&loader)).expect("loader");
        assert_eq!(
            shim,
            format!("import init from './{stem}.js';await init();")
        );
        assert_eq!(
            fingerprint(&lab.0, CHUNK),
            Ok(None),
            "a second run finds nothing to rename"
        );
    }

    #[test]
    fn another_build_gets_another_name() {
        let first = BuiltLab::new("first", GLUE);
        let second = BuiltLab::new("second", &format!("{GLUE}\n// changed"));
        assert_ne!(fingerprint(&first.0, CHUNK), fingerprint(&second.0, CHUNK));
    }

    #[test]
    fn glue_that_does_not_name_the_wasm_once_is_refused_untouched() {
        let lab = BuiltLab::new("refused", "fetch('elsewhere.wasm')");
        assert!(matches!(
            fingerprint(&lab.0, CHUNK),
            Err(LabFilesError::Reference { .. })
        ));
        assert_eq!(
            lab.files(),
            vec![
                "lab-figures.js",
                "lab-figures_bg.wasm",
                "lab-figures_loader.js"
            ]
        );
    }

    #[test]
    fn the_page_names_each_chunks_loader_in_its_own_meta_tag() {
        let page = r#"<head><meta name="lockdive:course-base" content="/" /><meta name="lockdive:lab-figures" content="lab-figures_loader.js" /><meta name="lockdive:lab-store" content="lab-store_loader.js" /></head>"#;
        let named =
            name_loader_in_page(page, LabChunk::Store, "lab-store-00ff_loader.js").expect("named");
        assert!(named
            .contains(r#"<meta name="lockdive:lab-store" content="lab-store-00ff_loader.js" />"#));
        assert!(named
            .contains(r#"<meta name="lockdive:lab-figures" content="lab-figures_loader.js" />"#));
        assert!(named.contains(r#"<meta name="lockdive:course-base" content="/" />"#));
        assert_eq!(
            name_loader_in_page("<head></head>", LabChunk::Figures, "x"),
            Err(LabFilesError::NoMeta("lockdive:lab-figures"))
        );
    }
}
