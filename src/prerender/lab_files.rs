//! The lab's files named after what they hold. Trunk writes them under fixed names (`lab.js`,
//! `lab_bg.wasm`, `lab_loader.js`: the asset type that keeps them out of the page load names them
//! for the binary), which no cache can tell apart from one build to the next. The build renames
//! them after a hash of their content and writes the loader's name into the page's
//! `<meta name="lockdive:lab">`, which the first wasm reads (`lockdive_contract::lab::LOADER_META`).

use std::fmt;
use std::fs;
use std::path::Path;

use lockdive_contract::lab::{LOADER as LAB_LOADER, LOADER_META as LAB_LOADER_META};

/// The files Trunk writes for the lab, and the one text each must hold for the renaming to be
/// followed: the glue names the wasm it fetches, the loader the glue it imports.
const WASM: &str = "lab_bg.wasm";
const GLUE: &str = "lab.js";
const WASM_IN_GLUE: &str = "'lab_bg.wasm'";
const GLUE_IN_LOADER: &str = "'./lab.js'";

/// Why the lab's files could not be renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabFilesError {
    /// A file could not be read, written or removed.
    Io(String),
    /// A file does not hold the reference to rename, exactly once: wasm-bindgen or Trunk changed
    /// what they write, and renaming blindly would break the lab.
    Reference { file: String, expected: String },
    /// The page has no `<meta name="lockdive:lab">` to name the loader in.
    NoMeta,
}

impl fmt::Display for LabFilesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabFilesError::Io(why) => f.write_str(why),
            LabFilesError::Reference { file, expected } => {
                write!(f, "{file} does not name {expected} exactly once")
            }
            LabFilesError::NoMeta => write!(f, "the page has no <meta name=\"{LAB_LOADER_META}\">"),
        }
    }
}

impl std::error::Error for LabFilesError {}

/// Renames the lab's files in `folder` after their content (`lab-<hash>.js`, `lab-<hash>_bg.wasm`,
/// `lab-<hash>_loader.js`) and returns the loader's new name; `None` when the folder holds no lab
/// under Trunk's names (none built, or renamed by an earlier run).
pub fn fingerprint(folder: &Path) -> Result<Option<String>, LabFilesError> {
    let io = |what: &str, path: &Path, e: std::io::Error| {
        LabFilesError::Io(format!("cannot {what} {}: {e}", path.display()))
    };
    let (wasm_path, glue_path, loader_path) = (
        folder.join(WASM),
        folder.join(GLUE),
        folder.join(LAB_LOADER),
    );
    if !wasm_path.is_file() {
        return Ok(None);
    }
    let wasm = fs::read(&wasm_path).map_err(|e| io("read", &wasm_path, e))?;
    let glue = fs::read_to_string(&glue_path).map_err(|e| io("read", &glue_path, e))?;
    let loader = fs::read_to_string(&loader_path).map_err(|e| io("read", &loader_path, e))?;

    let stem = format!("lab-{:016x}", content_hash(&[&wasm, glue.as_bytes()]));
    let (new_wasm, new_glue, new_loader) = (
        format!("{stem}_bg.wasm"),
        format!("{stem}.js"),
        format!("{stem}_loader.js"),
    );
    let glue = replace_once(&glue, GLUE, WASM_IN_GLUE, &format!("'{new_wasm}'"))?;
    let loader = replace_once(
        &loader,
        LAB_LOADER,
        GLUE_IN_LOADER,
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

/// `html` with its `<meta name="lockdive:lab">` naming `loader`.
pub fn name_loader_in_page(html: &str, loader: &str) -> Result<String, LabFilesError> {
    let mut from = 0;
    while let Some(at) = html[from..].find("<meta").map(|a| from + a) {
        let tag_end = html[at..].find('>').map_or(html.len(), |e| at + e);
        let tag = &html[at..tag_end];
        from = tag_end;
        if !tag.contains(&format!("name=\"{LAB_LOADER_META}\"")) {
            continue;
        }
        let Some(value_start) = tag.find("content=\"").map(|c| at + c + "content=\"".len()) else {
            return Err(LabFilesError::NoMeta);
        };
        let Some(value_end) = html[value_start..tag_end]
            .find('"')
            .map(|e| value_start + e)
        else {
            return Err(LabFilesError::NoMeta);
        };
        return Ok(format!(
            "{}{loader}{}",
            &html[..value_start],
            &html[value_end..]
        ));
    }
    Err(LabFilesError::NoMeta)
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
    use std::fs;
    use std::path::PathBuf;

    /// A folder holding a lab as Trunk writes it, removed on drop.
    struct BuiltLab(PathBuf);

    impl BuiltLab {
        fn new(name: &str, glue: &str) -> BuiltLab {
            let folder = std::env::temp_dir()
                .join(format!("lockdive-lab-files-{name}-{}", std::process::id()));
            fs::create_dir_all(&folder).expect("a scratch folder");
            fs::write(folder.join("lab_bg.wasm"), b"\0asm wasm").expect("wasm");
            fs::write(folder.join("lab.js"), glue).expect("glue");
            fs::write(
                folder.join("lab_loader.js"),
                "import init from './lab.js';await init();",
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

    const GLUE: &str =
        "imports['./lab_bg.js'] = x;\nmodule_or_path = new URL('lab_bg.wasm', import.meta.url);";

    #[test]
    fn the_labs_files_are_renamed_after_their_content_and_point_at_each_other() {
        let lab = BuiltLab::new("renamed", GLUE);
        let loader = fingerprint(&lab.0)
            .expect("renamed")
            .expect("a lab was there");
        let stem = loader.strip_suffix("_loader.js").expect("a loader name");
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
            glue.contains("'./lab_bg.js'"),
            "the wasm's import module keeps its name"
        );
        let shim = fs::read_to_string(lab.0.join(&loader)).expect("loader");
        assert_eq!(
            shim,
            format!("import init from './{stem}.js';await init();")
        );
        assert_eq!(
            fingerprint(&lab.0),
            Ok(None),
            "a second run finds nothing to rename"
        );
    }

    #[test]
    fn another_build_gets_another_name() {
        let first = BuiltLab::new("first", GLUE);
        let second = BuiltLab::new("second", &format!("{GLUE}\n// changed"));
        assert_ne!(fingerprint(&first.0), fingerprint(&second.0));
    }

    #[test]
    fn glue_that_does_not_name_the_wasm_once_is_refused_untouched() {
        let lab = BuiltLab::new("refused", "fetch('elsewhere.wasm')");
        assert!(matches!(
            fingerprint(&lab.0),
            Err(LabFilesError::Reference { .. })
        ));
        assert_eq!(lab.files(), vec!["lab.js", "lab_bg.wasm", "lab_loader.js"]);
    }

    #[test]
    fn the_page_names_the_loader_in_its_meta_tag() {
        let page = r#"<head><meta name="lockdive:course-base" content="/" /><meta name="lockdive:lab" content="lab_loader.js" /></head>"#;
        let named = name_loader_in_page(page, "lab-00ff_loader.js").expect("named");
        assert!(named.contains(r#"<meta name="lockdive:lab" content="lab-00ff_loader.js" />"#));
        assert!(named.contains(r#"<meta name="lockdive:course-base" content="/" />"#));
        assert_eq!(
            name_loader_in_page("<head></head>", "x"),
            Err(LabFilesError::NoMeta)
        );
    }
}
