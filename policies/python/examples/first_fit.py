"""First fit, in Python: the placements of acme-sim's C++ `first_fit`, byte for byte.

    policies:
      placement: {name: python, module: first_fit.py, class: FirstFit}

A job of up to one node's GPUs goes on the lowest-numbered node with enough free GPUs; a larger job takes
the lowest-numbered idle nodes whole; a fractional job shares the first shared GPU with room (lowest
node, then lowest GPU), else opens a shared GPU on the lowest node with a free GPU.
"""
import acme_sim

MILLI_PER_GPU = 1000


class FirstFit(acme_sim.PlacementPolicy):
    def place(self, job, view):
        if job.is_fractional:
            return self.place_fraction(job, view)
        if job.gpus <= view.gpus_per_node:
            for node in range(view.nodes):
                if view.free_gpus(node) >= job.gpus:
                    return [acme_sim.Share(node, job.gpus)]
            return None
        placement, held = [], 0
        for node in view.idle_nodes():
            if held >= job.gpus:
                break
            placement.append(acme_sim.Share(node, view.gpus_of(node)))
            held += view.gpus_of(node)
        return placement if held >= job.gpus else None

    def place_fraction(self, job, view):
        for node in range(view.nodes):
            if not view.is_up(node):
                continue
            for gpu in range(view.gpus_of(node)):
                used = view.shared_gpu_milli(node, gpu)
                if used > 0 and used + job.gpu_milli <= MILLI_PER_GPU:
                    return [acme_sim.Share(node, 0, job.gpu_milli, gpu)]
        for node in range(view.nodes):
            if view.free_gpus(node) >= 1:
                gpu = next(g for g in range(view.gpus_of(node)) if view.shared_gpu_milli(node, g) == 0)
                return [acme_sim.Share(node, 0, job.gpu_milli, gpu)]
        return None
