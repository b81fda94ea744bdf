//! The shipped golden vectors, for the tests that judge or audit one of them
//! changed (`judge_verdicts`, `vector_audit`).

use wirecheck::vectors::{self, Vector};

/// A shipped vector, by id.
pub fn vector(id: &str) -> Vector {
    let (all, errors) = vectors::embedded();
    assert!(errors.is_empty(), "the embedded vectors load: {errors:?}");
    all.into_iter()
        .find(|v| v.id == id)
        .unwrap_or_else(|| panic!("no vector {id}"))
}
