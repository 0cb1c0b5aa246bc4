// System calls that Swift's Glibc module does not bring in.
//
// mallopt(3) is in malloc.h, which that module leaves out too.
//
// renameat2(2) with RENAME_NOREPLACE renames only when the new name does not
// exist, atomically; glibc declares it only under _GNU_SOURCE, so it is
// reached through syscall(2) here.
#ifndef CSYSTEMCALLS_SHIM_H
#define CSYSTEMCALLS_SHIM_H

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/// RENAME_NOREPLACE in linux/fs.h.
static const unsigned int csys_rename_noreplace = 1;

/// renameat2(old_dir, old_name, new_dir, new_name, RENAME_NOREPLACE): 0, or
/// -1 with errno (EEXIST when the new name is taken, EINVAL or ENOSYS when
/// the file system or kernel cannot do it).
static inline int csys_rename_no_replace(int old_dir, const char *old_name, int new_dir,
                                         const char *new_name) {
#ifdef SYS_renameat2
  return (int)syscall(SYS_renameat2, old_dir, old_name, new_dir, new_name,
                      csys_rename_noreplace);
#else
  errno = ENOSYS;
  return -1;
#endif
}

/// Makes glibc keep freed memory (blocks below 4 MiB, up to 16 MiB in all)
/// of returning it to the system (M_MMAP_THRESHOLD, M_TRIM_THRESHOLD): a
/// program that allocates and frees the same buffers again and again then
/// does not fault in and clear fresh pages every time. No-op elsewhere.
static inline void csys_keep_freed_memory(void) {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 4 << 20);
  mallopt(M_TRIM_THRESHOLD, 16 << 20);
#endif
}

#endif
