#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    disable_transparent_huge_pages();
    gwctl::cli::main()
}

/// mimalloc backs its arenas with transparent huge pages and returns idle ones to the OS. A lint
/// run allocates and frees per file, so 2 MiB pages were faulted and zeroed again and again: a
/// sixth of the CPU time of a 100,000-resource run went to the kernel clearing pages. With
/// regular pages that cost is a fraction, and the run is faster and smaller.
#[cfg(target_os = "linux")]
fn disable_transparent_huge_pages() {
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and touches no memory of the process. A
    // kernel without it returns an error, which changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn disable_transparent_huge_pages() {}
