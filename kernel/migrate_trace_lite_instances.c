// SPDX-License-Identifier: GPL-2.0
/*
 * The migration trace's directories: the top trace's files in
 * migration_trace/, and its instances in migration_trace/instances/.
 *
 * "mkdir instances/NAME" makes an instance: a trace of its own, with the
 * top trace's files (enable, buffer_size_kb, overwrite, filter,
 * set_event_pid, event_fork, mark, reset, stats, trace, trace_pipe), so
 * that a flight recorder can run beside an ad-hoc trace, each with its
 * own buffer and filters.  The hooks record into an instance on their
 * out-of-line path, which a started instance turns on; the top trace
 * keeps its inline path, and costs nothing more while no instance runs.
 * The dump on oops shows the top trace only.
 *
 * "rmdir instances/NAME" refuses, with -EBUSY, an instance that is
 * enabled or has a file open; else it resets the instance and removes
 * it.  There are at most MT_INSTANCES_MAX instances, named with at most
 * MT_INSTANCE_NAME_MAX letters, digits, '_', '-' and '.'.
 */

#define pr_fmt(fmt) "migrate_trace_lite: " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite_instances.h"

/* Serializes mkdir and rmdir; taken outside mt_mutex. */
static DEFINE_MUTEX(mt_instances_lock);
static struct dentry *mt_instances_dir;

/* A trace's files, in its directory. */
static void mt_trace_files(struct mt_trace *tr, struct dentry *dir)
{
	tr->dir = dir;
	mt_control_init(tr, dir);
	mt_snap_init(tr, dir);
	mt_pipe_init(tr, dir);
}

/* Whether @name may name an instance: 0, -ENAMETOOLONG or -EINVAL. */
static int mt_instance_name_check(const char *name)
{
	size_t len = strlen(name), i;

	if (len > MT_INSTANCE_NAME_MAX)
		return -ENAMETOOLONG;
	if (!len || name[0] == '.')
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("_-.", name[i]))
			return -EINVAL;
	return 0;
}

/**
 * mt_instance_find() - the instance of a name
 * @name: its name
 *
 * Context: under mt_instances_lock.
 * Return: the instance, or NULL.
 */
VISIBLE_IF_KUNIT struct mt_trace *mt_instance_find(const char *name)
{
	struct mt_trace *tr;
	int i;

	mutex_lock(&mt_mutex);
	for (i = 0; i < MT_INSTANCES_MAX; i++) {
		tr = mt_instance_get_locked(i);
		if (tr && !strcmp(tr->name, name))
			break;
	}
	mutex_unlock(&mt_mutex);
	return i < MT_INSTANCES_MAX ? tr : NULL;
}

/* A free slot, or -ENOSPC. */
static int mt_instance_slot(void)
{
	int i, ret = -ENOSPC;

	mutex_lock(&mt_mutex);
	for (i = 0; i < MT_INSTANCES_MAX; i++) {
		if (!mt_instance_get_locked(i)) {
			ret = i;
			break;
		}
	}
	mutex_unlock(&mt_mutex);
	return ret;
}

/* An instance of no memory yet, with the top trace's defaults. */
static struct mt_trace *mt_instance_alloc(const char *name, int id)
{
	struct mt_trace *tr = kzalloc(sizeof(*tr), GFP_KERNEL_ACCOUNT);
	struct mt_ring __percpu *rings;

	if (!tr)
		return NULL;
	rings = alloc_percpu_gfp(struct mt_ring, GFP_KERNEL_ACCOUNT);
	if (!rings) {
		kfree(tr);
		return NULL;
	}
	mt_filter_set_all(&tr->filter);
	tr->buf_size_kb = CONFIG_SNSC_LITE_MIGRATION_TRACE_BUF_SIZE;
	tr->id = id;
	strscpy(tr->name, name, sizeof(tr->name));
	mutex_lock(&mt_mutex);
	mt_trace_setup(tr, rings);
	mutex_unlock(&mt_mutex);
	return tr;
}

static void mt_instance_free(struct mt_trace *tr)
{
	mt_trace_teardown(tr);
	free_percpu(tr->buf.rings);
	kfree(tr);
}

/**
 * mt_instance_mkdir() - make an instance: mkdir instances/NAME
 * @name: its name
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL for a name of other characters, -ENAMETOOLONG for
 * one too long, -EEXIST for one taken, -ENOSPC past MT_INSTANCES_MAX
 * instances, -ENOMEM.
 */
VISIBLE_IF_KUNIT int mt_instance_mkdir(const char *name)
{
	struct mt_trace *tr;
	struct dentry *dir;
	int id, ret;

	ret = mt_instance_name_check(name);
	if (ret)
		return ret;
	mutex_lock(&mt_instances_lock);
	if (mt_instance_find(name)) {
		ret = -EEXIST;
		goto out;
	}
	id = mt_instance_slot();
	if (id < 0) {
		ret = id;
		goto out;
	}
	tr = mt_instance_alloc(name, id);
	if (!tr) {
		ret = -ENOMEM;
		goto out;
	}
	dir = debugfs_create_dir(name, mt_instances_dir);
	if (IS_ERR(dir)) {
		ret = PTR_ERR(dir);
		mt_instance_free(tr);
		goto out;
	}
	mutex_lock(&mt_mutex);
	mt_instance_set_locked(id, tr);
	mutex_unlock(&mt_mutex);
	mt_trace_files(tr, dir);
out:
	mutex_unlock(&mt_instances_lock);
	return ret;
}

/**
 * mt_instance_rmdir() - remove an instance: rmdir instances/NAME
 * @name: its name
 *
 * Its files go first, so that nothing opens one again; then its trace is
 * reset, the hooks let go of it, and it is freed.
 *
 * Context: process context; sleeps.
 * Return: 0; -ENOENT for no such instance; -EBUSY if it is enabled or
 * one of its files is open.
 */
VISIBLE_IF_KUNIT int mt_instance_rmdir(const char *name)
{
	struct mt_trace *tr;
	int ret = 0;

	mutex_lock(&mt_instances_lock);
	tr = mt_instance_find(name);
	if (!tr) {
		ret = -ENOENT;
		goto out;
	}
	mutex_lock(&mt_mutex);
	if (tr->files || READ_ONCE(tr->tracing))
		ret = -EBUSY;
	else
		tr->removing = true;
	mutex_unlock(&mt_mutex);
	if (ret)
		goto out;
	/* Waits for the file operations under way; no open succeeds now. */
	debugfs_remove(tr->dir);
	mutex_lock(&mt_mutex);
	/*
	 * Nobody reads it: the reset frees its buffers whatever they hold.
	 * Should it fail all the same, the instance is left, unpublished
	 * and without files, rather than freed under a user.
	 */
	if (WARN_ON_ONCE(mt_reset_locked(tr))) {
		mt_instance_set_locked(tr->id, NULL);
		mutex_unlock(&mt_mutex);
		goto out;
	}
	mt_instance_set_locked(tr->id, NULL);
	mutex_unlock(&mt_mutex);
	/* A hook that still looks at it is done after this. */
	synchronize_rcu();
	mt_instance_free(tr);
out:
	mutex_unlock(&mt_instances_lock);
	return ret;
}

static const struct debugfs_instance_ops mt_instances_ops = {
	.mkdir	= mt_instance_mkdir,
	.rmdir	= mt_instance_rmdir,
};

/*
 * The top trace's buffer, readers and CPU hotplug state, early: the
 * kernel API works from here on, before the files exist.
 */
static int __init mt_top_init(void)
{
	mt_pipe_setup();
	mt_ring_init();
	mutex_lock(&mt_mutex);
	mt_trace_setup(&mt_top, &mt_rings);
	mutex_unlock(&mt_mutex);
	return 0;
}
core_initcall(mt_top_init);

/**
 * mt_instances_init() - create the top trace's files and instances/
 * @dir: debugfs migration_trace/
 */
void __init mt_instances_init(struct dentry *dir)
{
	mt_trace_files(&mt_top, dir);
	mt_instances_dir = debugfs_create_instance_dir("instances", dir,
						       &mt_instances_ops);
}
