import acme_sim


class OneGpu(acme_sim.PlacementPolicy):
    def place(self, job, view):
        for node in range(view.nodes):
            if view.free_gpus(node) > 0:
                return [acme_sim.Share(node, 1)]
        return None
