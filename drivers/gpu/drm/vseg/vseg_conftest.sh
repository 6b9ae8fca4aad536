#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Feature tests for vseg_compat.h: print -DVSEG_HAVE_<NAME> for each
# kernel API below that the headers under $1 (the kernel's include/) have.
# For APIs that changed inside stable series, where neither a version
# number nor a macro of the headers can tell.

inc=${1:?usage: vseg_conftest.sh KERNEL_INCLUDE_DIR}

have() {
	if grep -q -s -e "$2" "$inc/$3"; then
		printf ' -DVSEG_HAVE_%s' "$1"
	fi
}

# drm_sched_init() takes a struct drm_sched_init_args (6.15, 6.12.117).
have SCHED_INIT_ARGS 'struct drm_sched_init_args {' drm/gpu_scheduler.h
# drm_sched_job_init() takes the DRM client id (6.16, 6.12.117).
have SCHED_CLIENT_ID 'u64 drm_client_id);' drm/gpu_scheduler.h
# drm_sched_start() takes the error to give the jobs it cancels (6.13).
have SCHED_START_ERRNO 'drm_sched_start(struct drm_gpu_scheduler \*sched, int' \
	drm/gpu_scheduler.h
# The timedout handler's status after a reset is ..._RESET (6.17).
have SCHED_STAT_RESET 'DRM_GPU_SCHED_STAT_RESET' drm/gpu_scheduler.h
# drm_gpuvm's immediate mode, GEM objects' own gpuva lock (6.17).
have GPUVM_IMMEDIATE_MODE 'DRM_GPUVM_IMMEDIATE_MODE' drm/drm_gpuvm.h
# drm_gpuvm_sm_map() takes a struct drm_gpuvm_map_req (6.17).
have GPUVM_MAP_REQ 'struct drm_gpuvm_map_req {' drm/drm_gpuvm.h
# enum drm_gem_object_status has DRM_GEM_OBJECT_ACTIVE (6.15).
have GEM_OBJECT_ACTIVE 'DRM_GEM_OBJECT_ACTIVE' drm/drm_gem.h
echo
# system_dfl_wq, the unbound queue's new name (6.17, 6.12.y stable); 7.3
# warns of work queued on system_unbound_wq.
have SYSTEM_DFL_WQ 'extern struct workqueue_struct \*system_dfl_wq;' \
	linux/workqueue.h
# struct drm_atomic_state is renamed struct drm_atomic_commit (<=7.2).
have ATOMIC_COMMIT 'struct drm_atomic_commit {' drm/drm_atomic.h
# &drm_mode_config_funcs.fb_create and drm_gem_fb_create() take the
# format's info (<=7.2).
have FB_CREATE_INFO 'const struct drm_format_info \*info,' drm/drm_mode_config.h
# hrtimer_setup() replaces hrtimer_init() (6.13).
have HRTIMER_SETUP 'extern void hrtimer_setup(' linux/hrtimer.h
# drmm_kms_helper_poll_init() returns nothing (<=7.2).
have POLL_INIT_VOID '^void drmm_kms_helper_poll_init' drm/drm_probe_helper.h
# The DRM client setup moved to <drm/clients/> (drm_client_lib.ko, <=7.2),
# and drm_fbdev_ttm_setup() went (6.13).
have CLIENTS_DIR 'void drm_client_setup(' drm/clients/drm_client_setup.h
# TTM charges placements to a dmem cgroup region set per manager, which
# registers with a struct dmem_cgroup_init (7.3; the controller is 6.14's).
have TTM_DMEM_REGION 'void ttm_resource_manager_set_dmem_region' \
	drm/ttm/ttm_resource.h
