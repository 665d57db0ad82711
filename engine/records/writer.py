"""placeholder"""
def write_record(*a, **k):
    raise NotImplementedError
