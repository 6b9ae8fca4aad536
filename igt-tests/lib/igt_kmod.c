// SPDX-License-Identifier: MIT
/*
 * Kernel module load / unload without libkmod.
 *
 * Upstream IGT uses libkmod; this file gives the same results without it.
 * igt_kmod_load() looks for <name>.ko in the directories of $IGT_KMOD_PATH
 * (colon-separated; an extension of this implementation, for modules that
 * are not installed). If found, it loads the module's dependencies (the
 * depends= entry of its .modinfo section) first, each again from
 * $IGT_KMOD_PATH or with modprobe, then the module itself with
 * finit_module(). Otherwise it runs "modprobe <name> <opts>" and maps
 * modprobe's error message back to an errno.
 *
 * $IGT_KMOD_OPTIONS stands for a modprobe.d "options" line, which libkmod
 * applies to every load of upstream IGT: "<name>:<options>" (another
 * extension of this implementation) puts <options> before the options
 * every load of module <name> passes, with ',' for ' ' (so that the
 * variable holds no space). make check's PCI lane loads vseg on a PCI
 * device this way (tools/check.sh).
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

/*
 * Is @mod_name in /proc/modules? The name is compared as given, as libkmod
 * does: "drm_kms_helper", not "drm-kms-helper".
 */
bool igt_kmod_is_loaded(const char *mod_name)
{
	char line[512];
	bool found = false;
	FILE *f;

	f = fopen("/proc/modules", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');

		if (sp)
			*sp = '\0';
		found = !strcmp(line, mod_name);
	}
	fclose(f);
	return found;
}

void igt_kmod_list_loaded(void)
{
	char line[512], path[PATH_MAX];
	FILE *f;

	f = fopen("/proc/modules", "re");
	if (!f)
		return;
	igt_info("Module\t\t      Used by\n");
	while (fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');
		bool first = true;
		struct dirent *de;
		DIR *dir;

		if (sp)
			*sp = '\0';
		igt_info("%-24s", line);
		snprintf(path, sizeof(path), "/sys/module/%s/holders", line);
		dir = opendir(path);
		while (dir && (de = readdir(dir))) {
			if (de->d_name[0] == '.')
				continue;
			igt_info("%s%s", first ? "" : ",", de->d_name);
			first = false;
		}
		if (dir)
			closedir(dir);
		igt_info("\n");
	}
	fclose(f);
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

/*
 * Run @argv[0] (searched in $PATH, then /sbin) with stdout and stderr into
 * @out (NUL-terminated, cut at @size - 1). Returns its exit status, 127 if
 * it could not be run, 128 + the signal that killed it, or -errno.
 */
static int run_tool(char *const argv[], char *out, size_t size)
{
	int pipefd[2], status;
	size_t got = 0;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (pid == 0) {
		char sbin[64];

		dup2(pipefd[1], STDERR_FILENO);
		dup2(pipefd[1], STDOUT_FILENO);
		execvp(argv[0], argv);
		snprintf(sbin, sizeof(sbin), "/sbin/%s", argv[0]);
		execv(sbin, argv);
		_exit(127);
	}
	close(pipefd[1]);
	for (;;) {
		char discard[512];
		ssize_t r;

		if (got < size - 1)
			r = read(pipefd[0], out + got, size - 1 - got);
		else
			r = read(pipefd[0], discard, sizeof(discard));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (got < size - 1)
			got += r;
	}
	out[got] = '\0';
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int run_modprobe(const char *mod_name, const char *opts)
{
	char *copy = strdup(opts ? opts : "");
	char *argv[64], out[4096];
	int argc = 0, ret;

	if (!copy)
		return -ENOMEM;
	argv[argc++] = (char *)"modprobe";
	argv[argc++] = (char *)mod_name;
	for (char *save = NULL, *tok = strtok_r(copy, " \t\n", &save);
	     tok && argc < 63; tok = strtok_r(NULL, " \t\n", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;

	ret = run_tool(argv, out, sizeof(out));
	free(copy);
	if (out[0])
		igt_debug("modprobe %s: %s", mod_name, out);
	if (ret == 0)
		return 0;
	if (ret < 0)
		return ret;
	if (ret == 127 && !out[0])
		return -ENOEXEC;
	return errno_from_message(out);
}

/* Find <mod_name>.ko (or with '-'/'_' swapped) in $IGT_KMOD_PATH. */
static bool find_in_kmod_path(const char *mod_name, char *path, size_t size);

/*
 * Does the module (loaded or not) declare a parameter whose "parmtype"
 * entry starts with @param? As upstream, a prefix: "mem" matches
 * "mem_size_mb". Read with modinfo(8), from $IGT_KMOD_PATH or installed.
 */
bool igt_kmod_has_param(const char *mod_name, const char *param)
{
	char path[PATH_MAX], out[8192];
	char *argv[] = { (char *)"modinfo", (char *)"-F", (char *)"parmtype",
			 path, NULL };
	char *line, *save = NULL;

	if (!find_in_kmod_path(mod_name, path, sizeof(path)))
		snprintf(path, sizeof(path), "%s", mod_name);
	if (run_tool(argv, out, sizeof(out)))
		return false;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, param, strlen(param)))
			return true;
	return false;
}

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

/* Module names in /proc/modules and /sys/module use '_' for '-'. */
static void normalize(char *dst, size_t size, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < size; i++)
		dst[i] = name[i] == '-' ? '_' : name[i];
	dst[i] = '\0';
}

/* "live", "coming", "going", "builtin", or NULL if not in the kernel. */
static const char *module_initstate(const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(path, sizeof(path), "/sys/module/%s", name);
		return access(path, F_OK) == 0 ? "builtin" : NULL;
	}
	len = read(fd, buf, size - 1);
	close(fd);
	if (len <= 0)
		return NULL;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/*
 * @opts with the options $IGT_KMOD_OPTIONS gives module @name in front, in
 * @buf; or @opts itself.
 */
static const char *configured_opts(const char *name, const char *opts,
				   char *buf, size_t size)
{
	const char *env = getenv("IGT_KMOD_OPTIONS");
	size_t n = strlen(name);
	char *p;

	if (!env || strncmp(env, name, n) || env[n] != ':')
		return opts;
	snprintf(buf, size, "%s", env + n + 1);
	for (p = buf; *p; p++)
		if (*p == ',')
			*p = ' ';
	snprintf(p, size - (p - buf), " %s", opts ? opts : "");
	return buf;
}

static int kmod_load(const char *mod_name, const char *opts, int depth)
{
	char name[NAME_MAX], path[PATH_MAX], state[32], optbuf[1024];
	const char *st;
	int err;

	if (depth > MAX_DEPTH)
		return -ELOOP;

	/* As libkmod: with options (even ""), a loaded module is -EEXIST. */
	normalize(name, sizeof(name), mod_name);
	st = module_initstate(name, state, sizeof(state));
	if (st && (igt_kmod_is_loaded(name) || !strcmp(st, "builtin"))) {
		err = opts ? -EEXIST : 0;
	} else if (find_in_kmod_path(mod_name, path, sizeof(path))) {
		opts = configured_opts(name, opts, optbuf, sizeof(optbuf));
		igt_debug("Loading %s%s%s\n", path, opts ? " " : "",
			  opts ? opts : "");
		err = load_file(path, opts, depth);
	} else {
		err = run_modprobe(mod_name, configured_opts(name, opts, optbuf,
							     sizeof(optbuf)));
	}

	switch (err) {
	case 0:
		break;
	case -EEXIST:
		igt_debug("Module %s already inserted\n", name);
		break;
	case -ENOENT:
		igt_debug("Unknown symbol in module %s or unknown parameter\n",
			  name);
		break;
	default:
		igt_debug("Could not insert %s (%s)\n", name, strerror(-err));
		break;
	}
	return err;
}

int igt_kmod_load(const char *mod_name, const char *opts)
{
	return kmod_load(mod_name, opts, 0);
}

#define UNLOAD_TRIES	20
#define UNLOAD_SLEEP_US	500000

static int kmod_unload(const char *mod_name, int depth)
{
	char name[NAME_MAX], path[PATH_MAX], state[32];
	const char *st;
	struct dirent *de;
	int err = 0, tries;
	DIR *dir;

	if (depth > MAX_DEPTH)
		return -ELOOP;
	normalize(name, sizeof(name), mod_name);
	st = module_initstate(name, state, sizeof(state));
	if (st && !strcmp(st, "builtin"))
		return 0;

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
	if (err < 0)
		return err;

	if (st && !strcmp(st, "coming")) {
		struct timespec start = {};

		igt_debug("%s still initializing\n", name);
		/* as upstream, at most 10 s, then try anyway */
		while ((st = module_initstate(name, state, sizeof(state))) &&
		       !strcmp(st, "coming") &&
		       (igt_nsec_elapsed(&start) >> 20) <= 10000)
			usleep(100 * 1000);
	}

	for (tries = 0; tries < UNLOAD_TRIES; tries++) {
		err = syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
		if (err != -EBUSY && err != -EAGAIN)
			break;
		igt_debug("Module %s failed to unload with err: %d on attempt: %i\n",
			  name, err, tries + 1);
		if (tries < UNLOAD_TRIES - 1)
			usleep(UNLOAD_SLEEP_US);
	}

	if (err == -ENOENT)
		igt_debug("Module %s could not be found or does not exist. err: %d\n",
			  name, err);
	else if (err == -ENOTSUP)
		igt_debug("Module %s cannot be unloaded. err: %d\n", name, err);
	else if (err)
		igt_debug("Module %s failed to unload with err: %d after ~%.1fms\n",
			  name, err, UNLOAD_SLEEP_US * tries / 1000.);
	else if (tries)
		igt_debug("Module %s unload took ~%.1fms over %i attempts\n",
			  name, UNLOAD_SLEEP_US * tries / 1000., tries + 1);
	else
		igt_debug("Module %s unloaded immediately\n", name);
	return err;
}

int igt_kmod_unload(const char *mod_name)
{
	int err = kmod_unload(mod_name, 0);

	if (err < 0)
		igt_debug("Could not remove module %s (%s)\n", mod_name,
			  strerror(-err));
	return err < 0 ? err : 0;
}
