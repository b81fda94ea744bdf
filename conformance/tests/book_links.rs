//! Every relative link and `#anchor` in the book (`conformance/book/`) and the
//! top-level README resolves: the file or folder it names exists, and the
//! heading it names is in that file. Never the network: a link with a scheme
//! (`https:`, `mailto:`) is left alone. The markdown is read by pulldown-cmark,
//! the parser mdBook uses, so a link inside a code block is no link here either.
//!
//! Anchors are the ids GitHub and mdBook give headings (the same for this
//! text): the heading's text lowercased, letters, digits, `-` and `_` kept,
//! whitespace made `-`, the rest dropped; a repeated id gets `-1`, `-2`…
//! And mdBook's `SUMMARY.md` lists every chapter, so `mdbook build` leaves none out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

/// The repository's root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate is in the workspace")
        .to_path_buf()
}

/// A link as written, with the line it is on.
#[derive(Clone)]
struct Link {
    dest: String,
    line: usize,
}

/// What one markdown file holds that the check needs.
struct Doc {
    links: Vec<Link>,
    anchors: BTreeSet<String>,
    /// `[text][ref]` and `[text][]` whose reference is defined nowhere: GitHub
    /// shows them as bracketed text, a link lost without a word.
    undefined_refs: Vec<Link>,
}

/// The options GitHub's renderer and mdBook both have on.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

/// A heading's id, as GitHub and mdBook make it (before de-duplication).
fn slug(text: &str) -> String {
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().collect::<String>())
            } else if c.is_whitespace() {
                Some("-".to_owned())
            } else {
                None
            }
        })
        .collect()
}

fn parse(text: &str) -> Doc {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut undefined_refs = Vec::new();
    let mut broken = |link: pulldown_cmark::BrokenLink<'_>| {
        // A shortcut `[x]` is as often plain bracketed text (`[0, 1]`) as a
        // reference: only the forms that can be nothing but a link count.
        if matches!(
            link.link_type,
            LinkType::Reference
                | LinkType::Collapsed
                | LinkType::ReferenceUnknown
                | LinkType::CollapsedUnknown
        ) {
            undefined_refs.push(Link {
                dest: link.reference.to_string(),
                line: line_of(link.span.start),
            });
        }
        None
    };
    let parser = Parser::new_with_broken_link_callback(text, options(), Some(&mut broken));
    let mut links = Vec::new();
    let mut anchors = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<String> = None;
    for (event, range) in parser.into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let n = seen.entry(base.clone()).or_insert(0);
                anchors.insert(if *n == 0 { base } else { format!("{base}-{n}") });
                *n += 1;
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = &mut heading {
                    h.push_str(&t);
                }
            }
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                links.push(Link {
                    dest: dest_url.to_string(),
                    line: line_of(range.start),
                });
            }
            _ => {}
        }
    }
    Doc {
        links,
        anchors,
        undefined_refs,
    }
}

/// Whether `dest` leaves the repository (`https:`, `mailto:`): a scheme is
/// letters, digits, `+`, `-`, `.` before the first `:`, ahead of any `/`.
fn has_scheme(dest: &str) -> bool {
    dest.split_once(':').is_some_and(|(scheme, _)| {
        scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// `%XX` escapes decoded, as a browser does before asking for the file.
fn percent_decoded(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `path` with `.` and `..` folded, so two spellings of a file are one key.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The parsed file at `path`, read once; `None` when it cannot be read.
fn load<'a>(docs: &'a mut BTreeMap<PathBuf, Option<Doc>>, path: &Path) -> Option<&'a Doc> {
    docs.entry(path.to_path_buf())
        .or_insert_with(|| std::fs::read_to_string(path).ok().map(|t| parse(&t)))
        .as_ref()
}

/// Every broken link in `files` (markdown under `root`), as `file:line: why`,
/// and how many links were followed.
fn broken_links(root: &Path, files: &[PathBuf]) -> (Vec<String>, usize) {
    let mut docs: BTreeMap<PathBuf, Option<Doc>> = BTreeMap::new();
    let mut errors = Vec::new();
    let mut followed = 0;
    for file in files {
        let shown = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string();
        let doc = load(&mut docs, file)
            .unwrap_or_else(|| panic!("{} is not readable markdown", file.display()));
        let (links, undefined) = (doc.links.clone(), doc.undefined_refs.clone());
        for reference in undefined {
            errors.push(format!(
                "{shown}:{}: [{}] is a reference defined nowhere",
                reference.line, reference.dest
            ));
        }
        for Link { dest, line } in links {
            if has_scheme(&dest) {
                continue;
            }
            followed += 1;
            let (path, anchor) = match dest.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (dest.as_str(), None),
            };
            let target = if path.is_empty() {
                file.clone()
            } else if let Some(from_root) = path.strip_prefix('/') {
                // GitHub reads a leading `/` as the repository's root.
                normal(&root.join(percent_decoded(from_root)))
            } else {
                let dir = file.parent().expect("a file is in a folder");
                normal(&dir.join(percent_decoded(path)))
            };
            if !target.exists() {
                errors.push(format!("{shown}:{line}: {dest} names no file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if target.extension().is_none_or(|e| e != "md") {
                // GitHub's line anchors (`#L10`, `#L10-L20`) on a source file.
                let lines = anchor.split('-').all(|p| {
                    p.strip_prefix('L')
                        .is_some_and(|n| n.parse::<u32>().is_ok())
                });
                if !lines {
                    errors.push(format!(
                        "{shown}:{line}: {dest}: an anchor into a file that is not markdown"
                    ));
                }
                continue;
            }
            match load(&mut docs, &target) {
                None => errors.push(format!(
                    "{shown}:{line}: {dest}: the target is not readable"
                )),
                Some(doc) if !doc.anchors.contains(&percent_decoded(anchor)) => {
                    errors.push(format!(
                        "{shown}:{line}: {dest}: no heading there has the id {anchor:?}"
                    ));
                }
                Some(_) => {}
            }
        }
    }
    (errors, followed)
}

/// The book's chapters: every markdown file in `conformance/book/`.
fn chapters() -> Vec<PathBuf> {
    let dir = repo().join("conformance/book");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the book is there")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_link_and_anchor_in_the_book_and_the_readme_resolves() {
    let root = repo();
    let mut files = vec![root.join("README.md")];
    files.extend(chapters());
    let (errors, followed) = broken_links(&root, &files);
    assert!(errors.is_empty(), "broken links:\n{}", errors.join("\n"));
    // Not vacuous: the README alone links every chapter, some at a heading.
    assert!(followed >= 30, "only {followed} relative links followed");
}

#[test]
fn the_summary_lists_every_chapter_once() {
    let dir = repo().join("conformance/book");
    let summary = parse(&std::fs::read_to_string(dir.join("SUMMARY.md")).expect("SUMMARY.md"));
    let listed: Vec<String> = summary.links.iter().map(|l| l.dest.clone()).collect();
    let unique: BTreeSet<&String> = listed.iter().collect();
    assert_eq!(unique.len(), listed.len(), "listed twice: {listed:?}");
    let chapters: BTreeSet<String> = chapters()
        .iter()
        .filter_map(|p| p.file_name()?.to_str().map(str::to_owned))
        .filter(|name| name != "SUMMARY.md")
        .collect();
    let listed: BTreeSet<String> = listed.into_iter().collect();
    assert_eq!(
        listed, chapters,
        "SUMMARY.md and the chapters in conformance/book differ"
    );
    // mdBook reads the chapters from the book's own folder.
    let config = std::fs::read_to_string(dir.join("book.toml")).expect("book.toml");
    assert!(
        config.lines().any(|l| l.trim() == r#"src = ".""#),
        "book.toml's src is not the book's folder"
    );
}

/// The check finds what it is for, in a scratch book made to break it.
#[test]
fn a_broken_link_anchor_or_reference_is_found() {
    let dir = std::env::temp_dir().join(format!("wirecheck-book-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("b.md"),
        "# Over HTTP+SSE: `serve --http`\n\n## Same\n\n## Same\n\n```md\n# Not a heading\n```\n",
    )
    .unwrap();
    std::fs::write(dir.join("sub/c.rs"), "fn main() {}\n").unwrap();
    let a = "\
# A

[ok](b.md#over-httpsse-serve---http) [dup](b.md#same-1) [here](#a) [dir](sub)
[line](sub/c.rs#L1-L2) [web](https://example.invalid/x.md#nope) [plain [0, 1]]

[missing](missing.md)
[anchor](b.md#same-2)
[fenced](b.md#not-a-heading)
[rs](sub/c.rs#main)
[lost][nowhere]

```md
[in code](also-missing.md)
```
";
    std::fs::write(dir.join("a.md"), a).unwrap();
    let (errors, followed) = broken_links(&dir, &[dir.join("a.md")]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        errors,
        [
            "a.md:10: [nowhere] is a reference defined nowhere",
            "a.md:6: missing.md names no file",
            "a.md:7: b.md#same-2: no heading there has the id \"same-2\"",
            "a.md:8: b.md#not-a-heading: no heading there has the id \"not-a-heading\"",
            "a.md:9: sub/c.rs#main: an anchor into a file that is not markdown",
        ]
    );
    assert_eq!(followed, 9, "the web link is never followed");
}

#[test]
fn headings_get_the_ids_github_and_mdbook_give_them() {
    for (heading, id) in [
        (
            "Running the suite: `wirecheck run`",
            "running-the-suite-wirecheck-run",
        ),
        ("What a run prints", "what-a-run-prints"),
        ("Over HTTP+SSE (2024-11-05)", "over-httpsse-2024-11-05"),
        ("snake_case and Ünïcode", "snake_case-and-ünïcode"),
        ("A & B", "a--b"),
    ] {
        assert_eq!(slug(heading), id, "{heading}");
    }
}
