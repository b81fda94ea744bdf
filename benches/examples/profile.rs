//! A loop to run under a profiler: one frame of the mix, one piece of work, many
//! times. Instruction counts from callgrind do not drift with machine load, so
//! this is how the profile figures of `conformance/book/benchmarks.md` were taken:
//!
//! ```sh
//! cargo build --release -p wirecheck-benches --example profile
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
//!     target/release/examples/profile tools_list roundtrip 200
//! callgrind_annotate /tmp/cg.out | head -40
//! ```
//!
//! Work: `lift`, `lower`, `roundtrip` (`lower(lift(b))`), `floor`
//! (`from_slice::<IgnoredAny>`), or `oracle` (`harness::fuzzing::check_roundtrip`,
//! the whole of what the `roundtrip_bytes` fuzz target does per input).

use std::hint::black_box;
use std::process::ExitCode;

use wirecheck_benches::{floor, load, MIX};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(frame), Some(work)) = (args.first(), args.get(1)) else {
        eprintln!("usage: profile FRAME WORK [ITERATIONS]");
        eprintln!("  FRAME: ping | tools_call | tools_list | resources_read | batch");
        eprintln!("  WORK:  lift | lower | roundtrip | floor | oracle");
        return ExitCode::from(2);
    };
    let Some(spec) = MIX.iter().find(|s| s.name == frame) else {
        eprintln!("profile: unknown frame {frame}");
        return ExitCode::from(2);
    };
    let iterations: usize = match args.get(2).map(|n| n.parse()) {
        None => 1000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("profile: ITERATIONS: {e}");
            return ExitCode::from(2);
        }
    };
    let input = load(spec);
    let lifted = harness::lift(&input).expect("the mix lifts");
    for _ in 0..iterations {
        match work.as_str() {
            "lift" => drop(black_box(harness::lift(black_box(&input)))),
            "lower" => drop(black_box(harness::lower_to_vec(black_box(&lifted)))),
            "roundtrip" => {
                let frame = harness::lift(black_box(&input)).expect("lifts");
                drop(black_box(harness::lower_to_vec(&frame)));
            }
            "floor" => floor(black_box(&input)).expect("valid JSON"),
            "oracle" => drop(black_box(
                harness::fuzzing::check_roundtrip(black_box(&input)).expect("no failure"),
            )),
            other => {
                eprintln!("profile: unknown work {other}");
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}
