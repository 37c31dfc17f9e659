//! Names of the `errno` values the meters can meet, for notes in words.

/// The symbolic name of an `errno` value (`"ENOENT"`), or `"errno"` for one
/// this table does not know.
pub(crate) fn name(errno: i32) -> &'static str {
    let known = [
        (libc::EPERM, "EPERM"),
        (libc::ENOENT, "ENOENT"),
        (libc::ESRCH, "ESRCH"),
        (libc::EINTR, "EINTR"),
        (libc::EIO, "EIO"),
        (libc::E2BIG, "E2BIG"),
        (libc::EBADF, "EBADF"),
        (libc::ENOMEM, "ENOMEM"),
        (libc::EACCES, "EACCES"),
        (libc::EFAULT, "EFAULT"),
        (libc::EBUSY, "EBUSY"),
        (libc::ENODEV, "ENODEV"),
        (libc::EINVAL, "EINVAL"),
        (libc::EMFILE, "EMFILE"),
        (libc::ENFILE, "ENFILE"),
        (libc::ENOSPC, "ENOSPC"),
        (libc::ENOSYS, "ENOSYS"),
        (libc::EOPNOTSUPP, "EOPNOTSUPP"),
        (libc::EOVERFLOW, "EOVERFLOW"),
    ];
    match known.iter().find(|(e, _)| *e == errno) {
        Some(&(_, name)) => name,
        None => "errno",
    }
}

/// The name of the calling thread's last `errno`.
pub(crate) fn last_name() -> &'static str {
    name(last())
}

/// The calling thread's last `errno`.
pub(crate) fn last() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_known_values_and_falls_back() {
        assert_eq!(super::name(libc::ENOENT), "ENOENT");
        assert_eq!(super::name(libc::EOPNOTSUPP), "EOPNOTSUPP");
        assert_eq!(super::name(-7), "errno");
    }
}
