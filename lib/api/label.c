/*
 * Labels (aclrtCreateLabel, aclrtSetLabel, aclrtDestroyLabel,
 * aclrtCreateLabelList, aclrtDestroyLabelList, aclrtSwitchLabelByIndex).
 *
 * As the runtime: a label is put in a label list before it is set; it is
 * set once, on a stream bound to a model being built, and marks the
 * position of the next task of that stream; aclrtSwitchLabelByIndex
 * queues a task that, when a replay reaches it, reads a uint32 index from
 * device memory and goes on at the label of that index in the list (an
 * index past the last goes to the last label: the vendor's page), leaving
 * the rest of its own stream.  The position is resolved when the model's
 * build ends (model_ri_build.c).  Labels and lists live in the process
 * (65535 labels at most, the vendor's page), guarded by ri_lock; tasks
 * name labels by id, so destroying a label or list later changes no model.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"
#include "model_ri.h"
#include "model_ri_flow.h"

#define MAX_LABELS 65535U

struct label {
	struct label *next;
	uint32_t id;
	int listed;		/* in a label list */
	int set;		/* aclrtSetLabel done */
	uint32_t kid;		/* its stream */
	int dev;
};

struct label_list {
	struct label_list *next;
	uint32_t n;
	uint32_t ids[];
};

static struct label *labels;
static struct label_list *lists;
static uint32_t nlabels, next_label_id = 1;

static struct label *label_find(const void *h)
{
	for (struct label *l = labels; l != NULL; l = l->next)
		if (l == h)
			return l;
	return NULL;
}

static struct label_list *list_find(const void *h)
{
	for (struct label_list *l = lists; l != NULL; l = l->next)
		if (l == h)
			return l;
	return NULL;
}

static aclError bad_label(const void *h)
{
	npu_rt_msg_detail("label %p is not a live label of this process", h);
	return ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *label)
{
	struct label *l;
	int dev;
	aclError err;

	if (label == NULL) {
		npu_rt_msg_detail("label is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_enter_current(&dev);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_devices_unlock();
	npu_rt_ri_lock();
	if (nlabels >= MAX_LABELS) {
		npu_rt_ri_unlock();
		npu_rt_msg_detail("the process has %u labels, the most it may", MAX_LABELS);
		return ACL_ERROR_RT_INTERNAL_ERROR;
	}
	l = calloc(1, sizeof(*l));
	if (l == NULL) {
		npu_rt_ri_unlock();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	l->id = next_label_id++;
	l->dev = dev;
	l->next = labels;
	labels = l;
	nlabels++;
	*label = l;
	npu_rt_ri_unlock();
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label)
{
	if (label == NULL) {
		npu_rt_msg_detail("label is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	npu_rt_ri_lock();
	for (struct label **p = &labels; *p != NULL; p = &(*p)->next) {
		if (*p == label) {
			struct label *l = *p;

			*p = l->next;
			nlabels--;
			npu_rt_ri_unlock();
			free(l);
			return ACL_SUCCESS;
		}
	}
	npu_rt_ri_unlock();
	return bad_label(label);
}

ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream)
{
	struct npu_rt_flow_stream *st = NULL;
	struct npu_rt_flow_task *p;
	struct npu_rt_graph *g;
	struct npu_rt_ref ref;
	struct label *l;
	aclError err;

	if (label == NULL || stream == NULL) {
		npu_rt_msg_detail("%s is NULL", label == NULL ? "label" : "stream");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, &ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_ri_lock();
	l = label_find(label);
	if (l == NULL) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		return bad_label(label);
	}
	err = npu_rt_stream_ctx_check_locked(&ref);
	if (err != ACL_SUCCESS) {
		npu_rt_ri_unlock();
		return err;
	}
	g = npu_rt_flow_bound(ref.dev, ref.kid, &st);
	if (g == NULL || g->flow->loaded) {
		err = ACL_ERROR_RT_STREAM_MODEL;
		npu_rt_msg_detail("the stream is not bound to a model being built (aclmdlRIBindStream)");
	} else if (l->set) {
		err = ACL_ERROR_RT_INTERNAL_ERROR;
		npu_rt_msg_detail(l->kid != ref.kid ? "the label is set on another stream" :
				  "the label is set already (once only)");
	} else if (!l->listed) {
		err = ACL_ERROR_RT_INTERNAL_ERROR;
		npu_rt_msg_detail("put the label in a label list (aclrtCreateLabelList) before setting it");
	}
	p = err == ACL_SUCCESS ? calloc(1, sizeof(*p)) : NULL;
	if (err == ACL_SUCCESS && p == NULL)
		err = ACL_ERROR_RT_MEMORY_ALLOCATION;
	if (err == ACL_SUCCESS) {
		p->label = l->id;
		if (npu_rt_flow_add_task(g, ref.kid, stream, NPU_RT_FLOW_LABEL, p) != 0) {
			err = ACL_ERROR_RT_MEMORY_ALLOCATION;
		} else {
			l->set = 1;
			l->kid = ref.kid;
		}
	}
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labelsIn, size_t num, aclrtLabelList *labelList)
{
	struct label_list *ll;
	aclError err = ACL_SUCCESS;

	if (labelsIn == NULL || labelList == NULL) {
		npu_rt_msg_detail("%s is NULL", labelsIn == NULL ? "labels" : "labelList");
		return ACL_ERROR_INVALID_PARAM;
	}
	if (num == 0 || num > MAX_LABELS) {
		npu_rt_msg_detail("num %zu is outside (0, %u]", num, MAX_LABELS);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	ll = malloc(sizeof(*ll) + num * sizeof(ll->ids[0]));
	if (ll == NULL)
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	npu_rt_ri_lock();
	for (size_t i = 0; i < num && err == ACL_SUCCESS; i++) {
		struct label *l = label_find(labelsIn[i]);

		if (l == NULL)
			err = bad_label(labelsIn[i]);
		else
			ll->ids[i] = l->id;
	}
	if (err == ACL_SUCCESS) {
		for (size_t i = 0; i < num; i++)
			label_find(labelsIn[i])->listed = 1;
		ll->n = (uint32_t)num;
		ll->next = lists;
		lists = ll;
		*labelList = ll;
	}
	npu_rt_ri_unlock();
	if (err != ACL_SUCCESS)
		free(ll);
	return err;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList)
{
	if (labelList == NULL) {
		npu_rt_msg_detail("labelList is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	npu_rt_ri_lock();
	for (struct label_list **p = &lists; *p != NULL; p = &(*p)->next) {
		if (*p == labelList) {
			struct label_list *l = *p;

			*p = l->next;
			npu_rt_ri_unlock();
			free(l);
			return ACL_SUCCESS;
		}
	}
	npu_rt_ri_unlock();
	npu_rt_msg_detail("labelList %p is not a live label list of this process", labelList);
	return ACL_ERROR_RT_PARAM_INVALID;
}

ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList,
						     aclrtStream stream)
{
	struct npu_rt_flow_task *p = NULL;
	struct npu_rt_graph *g;
	struct label_list *ll;
	struct npu_rt_ref ref;
	aclError err;

	if (ptr == NULL || labelList == NULL || stream == NULL) {
		npu_rt_msg_detail("%s is NULL", ptr == NULL ? "ptr" : labelList == NULL ? "labelList" : "stream");
		return ACL_ERROR_INVALID_PARAM;
	}
	if ((uintptr_t)ptr & (sizeof(uint32_t) - 1)) {
		npu_rt_msg_detail("ptr %p is not aligned to its uint32 index", ptr);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_obj_enter(stream, NPU_RT_OBJ_STREAM, &ref);
	if (err != ACL_SUCCESS)
		return err;
	npu_rt_ri_lock();
	ll = list_find(labelList);
	if (ll == NULL) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("labelList %p is not a live label list of this process", labelList);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	if (maxValue == 0 || maxValue > ll->n) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("maxValue %u is outside [1, %u], the labels of the list", maxValue, ll->n);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	err = npu_rt_stream_ctx_check_locked(&ref);
	if (err != ACL_SUCCESS) {
		npu_rt_ri_unlock();
		return err;
	}
	g = npu_rt_flow_bound(ref.dev, ref.kid, NULL);
	if (g == NULL || g->flow->loaded) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		npu_rt_msg_detail("the stream is not bound to a model being built (aclmdlRIBindStream)");
		return ACL_ERROR_RT_STREAM_MODEL;
	}
	err = npu_rt_stream_range_locked(&ref, ptr, sizeof(uint32_t), "ptr");
	if (err != ACL_SUCCESS) {
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		return err;
	}
	p = calloc(1, sizeof(*p));
	if (p != NULL)
		p->labels = malloc(maxValue * sizeof(*p->labels));
	if (p == NULL || p->labels == NULL) {
		free(p);
		npu_rt_ri_unlock();
		npu_rt_devices_unlock();
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	memcpy(p->labels, ll->ids, maxValue * sizeof(*p->labels));
	p->nlabels = maxValue;
	p->value = (uintptr_t)ptr;
	err = npu_rt_flow_add_task(g, ref.kid, stream, NPU_RT_FLOW_SWITCH_LABEL, p) != 0 ?
	      ACL_ERROR_RT_MEMORY_ALLOCATION : ACL_SUCCESS;
	npu_rt_ri_unlock();
	npu_rt_devices_unlock();
	return err;
}
