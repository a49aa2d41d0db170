// The GL state of a call (strata state's JSON) as nested tables: shared by
// `strata state --html` and the report's state panel (`strata view
// --state-frames`). `imageUrl(text)` says whether a string names an image,
// and where it is (null: it is plain text).
window.StrataStateView = (function () {
  function render(value, imageUrl) {
    if (value === null) return document.createTextNode("null");
    if (Array.isArray(value)) {
      if (value.every((v) => typeof v !== "object" || v === null) && !value.some((v) => typeof v === "string" && imageUrl(v))) {
        return document.createTextNode("[" + value.map((v) => JSON.stringify(v)).join(", ") + "]");
      }
      const list = document.createElement("ol");
      list.start = 0;
      list.className = "state-list";
      for (const item of value) {
        const li = document.createElement("li");
        li.appendChild(render(item, imageUrl));
        list.appendChild(li);
      }
      return list;
    }
    if (typeof value === "object") {
      const table = document.createElement("table");
      table.className = "state-table";
      for (const [key, item] of Object.entries(value)) {
        const row = table.insertRow();
        const th = document.createElement("th");
        th.textContent = key;
        row.appendChild(th);
        row.insertCell().appendChild(render(item, imageUrl));
      }
      return table;
    }
    if (typeof value === "string") {
      const url = imageUrl(value);
      if (url) {
        const link = document.createElement("a");
        link.href = url;
        link.target = "_blank";
        const img = document.createElement("img");
        img.src = url;
        img.className = "state-image";
        img.title = value;
        link.appendChild(img);
        return link;
      }
      if (value.includes("\n")) {
        const pre = document.createElement("pre");
        pre.textContent = value;
        return pre;
      }
      return document.createTextNode(value);
    }
    return document.createTextNode(JSON.stringify(value));
  }
  return { render };
})();
