#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    #[cfg(feature = "mimalloc")]
    tune_allocator();
    gwctl::cli::main()
}

/// Keeps freed pages for a second before returning them to the OS: each file's tree is freed as
/// soon as the file is linted, and with mimalloc's default 10 ms the kernel zeroed fresh pages
/// for the next files (about 15% of a large run's wall time).
#[cfg(feature = "mimalloc")]
fn tune_allocator() {
    // `mi_option_purge_delay` is the 16th option in mimalloc 2.x and 3.x; the bindings do not
    // name it.
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    // SAFETY: sets a process-wide option; mimalloc allows this at any time.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 1000) }
}
