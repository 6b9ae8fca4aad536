// SPDX-License-Identifier: MIT
/*
 * Kernel module load / unload without libkmod.
 *
 * igt_kmod_load() looks for <name>.ko in the directories of $IGT_KMOD_PATH
 * (colon-separated). If found, it loads the module's dependencies (the
 * depends= entry of its .modinfo section) first, each again from
 * $IGT_KMOD_PATH or with modprobe, then the module itself with
 * finit_module(). Otherwise it runs "modprobe <name> <opts>" and maps
 * modprobe's error message back to an errno.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "igt_core.h"
#include "igt_kmod.h"

#define MAX_DEPTH 8

/* Module names in /proc/modules and /sys/module use '_' for '-'. */
static void normalize(char *dst, size_t size, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < size; i++)
		dst[i] = name[i] == '-' ? '_' : name[i];
	dst[i] = '\0';
}

bool igt_kmod_is_loaded(const char *mod_name)
{
	char want[NAME_MAX], line[512], path[PATH_MAX];
	bool found = false;
	FILE *f;

	normalize(want, sizeof(want), mod_name);
	f = fopen("/proc/modules", "re");
	if (!f) {
		snprintf(path, sizeof(path), "/sys/module/%s/initstate", want);
		return access(path, F_OK) == 0;
	}
	while (!found && fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');

		if (sp)
			*sp = '\0';
		found = !strcmp(line, want);
	}
	fclose(f);
	return found;
}

void igt_kmod_list_loaded(void)
{
	char line[512];
	FILE *f;

	f = fopen("/proc/modules", "re");
	if (!f)
		return;
	igt_info("Module\t\t      Used by\n");
	while (fgets(line, sizeof(line), f)) {
		char name[128], users[256];
		unsigned long size;
		int refs;

		if (sscanf(line, "%127s %lu %d %255s", name, &size, &refs,
			   users) == 4)
			igt_info("%-24s%s\n", name, strcmp(users, "-") ? users : "");
	}
	fclose(f);
}

bool igt_kmod_has_param(const char *mod_name, const char *param)
{
	char want[NAME_MAX], path[PATH_MAX];

	normalize(want, sizeof(want), mod_name);
	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", want,
		 param);
	return access(path, F_OK) == 0;
}

/* Read a whole file into memory. */
static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return NULL;
	}
	buf = malloc(st.st_size);
	while (buf && got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, st.st_size - got);

		if (r <= 0) {
			free(buf);
			buf = NULL;
			break;
		}
		got += r;
	}
	close(fd);
	*len = got;
	return buf;
}

/*
 * The comma-separated depends= value of a module file's .modinfo section,
 * or NULL if it has none. Returns a malloc()ed string.
 */
static char *module_depends(const char *path)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	char *depends = NULL;
	size_t len;
	char *img;

	img = slurp(path, &len);
	if (!img)
		return NULL;
	eh = (const Elf64_Ehdr *)img;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff > len ||
	    (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > len - eh->e_shoff ||
	    eh->e_shstrndx >= eh->e_shnum) {
		igt_debug("%s: not a 64-bit ELF module\n", path);
		goto out;
	}
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);

	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *strtab = &sh[eh->e_shstrndx];
		const char *p, *end;

		if (strtab->sh_offset + sh[i].sh_name >= len ||
		    strcmp(img + strtab->sh_offset + sh[i].sh_name, ".modinfo"))
			continue;
		if (sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset)
			break;
		p = img + sh[i].sh_offset;
		end = p + sh[i].sh_size;
		while (p < end) {
			size_t n = strnlen(p, end - p);

			if (n > 8 && !strncmp(p, "depends=", 8) && n < (size_t)(end - p))
				depends = strdup(p + 8);
			p += n + 1;
		}
		break;
	}
out:
	free(img);
	return depends;
}

/* Map a message such as "could not insert 'x': Invalid argument" to errno. */
static int errno_from_message(const char *msg)
{
	size_t best_len = 0;
	int best = 0;

	for (int e = 1; e < 134; e++) {
		const char *s = strerror(e);
		size_t n = strlen(s);

		if (n > best_len && strstr(msg, s)) {
			best = e;
			best_len = n;
		}
	}
	if (best)
		return -best;
	if (strstr(msg, "not found"))
		return -ENOENT;
	return -EIO;
}

static int run_modprobe(const char *mod_name, const char *opts)
{
	char *copy = strdup(opts ? opts : "");
	char *argv[64], out[4096];
	int argc = 0, pipefd[2], status;
	size_t got = 0;
	pid_t pid;

	if (!copy)
		return -ENOMEM;
	argv[argc++] = (char *)"modprobe";
	argv[argc++] = (char *)mod_name;
	for (char *save = NULL, *tok = strtok_r(copy, " \t\n", &save);
	     tok && argc < 63; tok = strtok_r(NULL, " \t\n", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;

	if (pipe2(pipefd, O_CLOEXEC)) {
		free(copy);
		return -errno;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(pipefd[0]);
		close(pipefd[1]);
		free(copy);
		return err;
	}
	if (pid == 0) {
		dup2(pipefd[1], STDERR_FILENO);
		dup2(pipefd[1], STDOUT_FILENO);
		execvp("modprobe", argv);
		execv("/sbin/modprobe", argv);
		_exit(127);
	}
	close(pipefd[1]);
	for (;;) {
		ssize_t r = read(pipefd[0], out + got, sizeof(out) - 1 - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
		if (got == sizeof(out) - 1)
			break;
	}
	out[got] = '\0';
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	free(copy);

	if (got)
		igt_debug("modprobe %s: %s", mod_name, out);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !got)
		return -ENOEXEC;
	return errno_from_message(out);
}

/* Find <mod_name>.ko (or with '-'/'_' swapped) in $IGT_KMOD_PATH. */
static bool find_in_kmod_path(const char *mod_name, char *path, size_t size)
{
	const char *env = getenv("IGT_KMOD_PATH");
	char *copy, *dir, *save = NULL;
	bool found = false;

	if (!env || !*env)
		return false;
	copy = strdup(env);
	if (!copy)
		return false;
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char alt[NAME_MAX];

		snprintf(path, size, "%s/%s.ko", dir, mod_name);
		if (access(path, R_OK) == 0) {
			found = true;
			break;
		}
		snprintf(alt, sizeof(alt), "%s", mod_name);
		for (char *p = alt; *p; p++)
			*p = *p == '_' ? '-' : *p == '-' ? '_' : *p;
		snprintf(path, size, "%s/%s.ko", dir, alt);
		found = access(path, R_OK) == 0;
	}
	free(copy);
	return found;
}

static int kmod_load(const char *mod_name, const char *opts, int depth);

static int load_file(const char *path, const char *opts, int depth)
{
	char *depends;
	int fd, err = 0;

	depends = module_depends(path);
	if (depends && *depends) {
		char *save = NULL;

		for (char *dep = strtok_r(depends, ",", &save); dep && !err;
		     dep = strtok_r(NULL, ",", &save)) {
			if (igt_kmod_is_loaded(dep))
				continue;
			igt_debug("Loading %s, needed by %s\n", dep, path);
			err = kmod_load(dep, NULL, depth + 1);
			if (err == -EEXIST)
				err = 0;
			if (err)
				igt_debug("Could not load %s (%s), needed by %s\n",
					  dep, strerror(-err), path);
		}
	}
	free(depends);
	if (err)
		return err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, opts ? opts : "", 0))
		err = -errno;
	close(fd);
	return err;
}

static int kmod_load(const char *mod_name, const char *opts, int depth)
{
	char path[PATH_MAX];
	int err;

	if (depth > MAX_DEPTH)
		return -ELOOP;

	if (igt_kmod_is_loaded(mod_name)) {
		/* As upstream: options ask for a fresh load. */
		if (opts && *opts)
			err = -EEXIST;
		else
			err = 0;
		igt_debug("Module %s already inserted\n", mod_name);
		return err;
	}

	if (find_in_kmod_path(mod_name, path, sizeof(path))) {
		igt_debug("Loading %s%s%s\n", path, opts ? " " : "",
			  opts ? opts : "");
		err = load_file(path, opts, depth);
	} else {
		err = run_modprobe(mod_name, opts);
	}

	if (err == -EEXIST && !(opts && *opts))
		err = 0;
	if (err)
		igt_debug("Could not insert %s (%s)\n", mod_name,
			  strerror(-err));
	return err;
}

int igt_kmod_load(const char *mod_name, const char *opts)
{
	return kmod_load(mod_name, opts, 0);
}

static int kmod_unload(const char *mod_name, int depth)
{
	char name[NAME_MAX], path[PATH_MAX];
	struct dirent *de;
	int err = 0;
	DIR *dir;

	if (depth > MAX_DEPTH)
		return -ELOOP;
	normalize(name, sizeof(name), mod_name);
	if (!igt_kmod_is_loaded(name))
		return -ENOENT;

	/* Modules that use this one go first. */
	snprintf(path, sizeof(path), "/sys/module/%s/holders", name);
	dir = opendir(path);
	while (dir && (de = readdir(dir)) && !err) {
		if (de->d_name[0] == '.')
			continue;
		err = kmod_unload(de->d_name, depth + 1);
	}
	if (dir)
		closedir(dir);
	if (err)
		return err;

	for (int tries = 0; tries < 20; tries++) {
		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0)
			return 0;
		err = -errno;
		if (err != -EBUSY && err != -EAGAIN)
			break;
		igt_debug("Module %s failed to unload with err: %d on attempt: %d\n",
			  name, err, tries + 1);
		usleep(250 * 1000);
	}
	return err;
}

int igt_kmod_unload(const char *mod_name)
{
	int err = kmod_unload(mod_name, 0);

	if (err)
		igt_debug("Could not remove module %s (%s)\n", mod_name,
			  strerror(-err));
	return err;
}
