//! `prerender <index.html>`: renders the page natively (leptos `ssr`, scenarios run in ministore)
//! into the `<body>` of an index.html Trunk produced, in place, and names the lab chunks' files
//! beside it after their content. Trunk's post_build hook runs it (see Trunk.toml), so `trunk build` and
//! `trunk serve` ship a page readable before the wasm.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use lockdive::prerender::lab_files;
    use std::process::ExitCode;

    let mut args = std::env::args_os().skip(1);
    let (Some(path), None) = (args.next(), args.next()) else {
        eprintln!("usage: prerender <path/to/index.html>");
        return ExitCode::from(2);
    };
    let path = std::path::PathBuf::from(path);
    let index_html = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("prerender: cannot read {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let page = match lockdive::prerender::prerender_page(&index_html) {
        Ok(page) => page,
        Err(e) => {
            eprintln!("prerender: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    // Each lab chunk's files sit beside the page Trunk built; name them after their content and
    // tell the page each loader's new name.
    let folder = path.parent().unwrap_or(std::path::Path::new("."));
    let mut page = page;
    for chunk in lockdive_contract::lab::LabChunk::ALL {
        let named = match lab_files::fingerprint(folder, chunk) {
            Ok(Some(loader)) => lab_files::name_loader_in_page(&page, chunk, &loader),
            Ok(None) => Ok(page),
            Err(e) => Err(e),
        };
        page = match named {
            Ok(page) => page,
            Err(e) => {
                eprintln!(
                    "prerender: the {} files in {}: {e}",
                    chunk.bin(),
                    folder.display()
                );
                return ExitCode::FAILURE;
            }
        };
    }
    if let Err(e) = std::fs::write(&path, page) {
        eprintln!("prerender: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The prerender is a build tool; a wasm build of it (as `cargo test --target wasm32-…` makes of
/// every binary) has nothing to do.
#[cfg(target_arch = "wasm32")]
fn main() {}
