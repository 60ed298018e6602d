gwctl lint route.utf8.yaml    # converted: iconv -f UTF-16 -t UTF-8 route.yaml > route.utf8.yaml
